package dev.spacebench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How long ago this process started, as the kernel counts it: from the moment the process was
 * created (before the JVM loaded), not from the JVM's own start time, which {@code RuntimeMXBean}
 * sets once the JVM has initialised (measured here: 85–100 ms after the launch on a 2-vCPU host,
 * time that a Space's ready split would otherwise count as the Space's creation).
 *
 * <p>Source: proc(5). {@code /proc/self/stat} field 22 is the process's start time in clock ticks
 * since boot; {@code /proc/uptime}'s first field is the seconds since boot, to 10 ms. Both come from
 * the kernel's boot-time clock, so their difference is the process's age. Clock ticks are
 * {@code USER_HZ}, which Linux fixes at 100 per second for /proc on every architecture, so the
 * result has a resolution of 10 ms (each reading is truncated to 10 ms).
 */
final class ProcessAge {

    private static final long NS_PER_TICK = 10_000_000L;
    private static final int STARTTIME_FIELD = 22;

    private ProcessAge() {}

    /** This process's age in ns (10 ms resolution); empty where /proc cannot be read (not Linux). */
    static OptionalLong sinceStartNs() {
        try {
            return OptionalLong.of(Math.max(0, uptimeNs(Files.readString(Path.of("/proc/uptime")))
                    - startTicks(Files.readString(Path.of("/proc/self/stat"))) * NS_PER_TICK));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Field 22 of a {@code /proc/PID/stat} line. The command name (field 2) is in parentheses and may
     * itself hold spaces and parentheses, so fields are counted from the last ')'.
     *
     * @throws IllegalArgumentException if the line has no such field
     */
    static long startTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("no command name in /proc/self/stat");
        }
        String[] after = stat.substring(close + 1).trim().split("\\s+");
        int index = STARTTIME_FIELD - 3; // the first field after ')' is field 3
        if (after.length <= index) {
            throw new IllegalArgumentException("/proc/self/stat has " + (after.length + 2) + " fields, not " + STARTTIME_FIELD);
        }
        return Long.parseLong(after[index]);
    }

    /** The first field of {@code /proc/uptime} ("12345.67 …"), in ns. */
    static long uptimeNs(String uptime) {
        String seconds = uptime.trim().split("\\s+")[0];
        int dot = seconds.indexOf('.');
        String whole = dot < 0 ? seconds : seconds.substring(0, dot);
        String fraction = dot < 0 ? "" : (seconds.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(whole) * 1_000_000_000L + (fraction.isEmpty() ? 0 : Long.parseLong(fraction));
    }
}
