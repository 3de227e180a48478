package dev.spacebench.space.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * A file in a Space's or a run's host directory naming the app process that made it (pid and
 * start time, so a reused pid is not taken for the owner). The start time compared is the kernel's
 * own count of clock ticks since boot ({@code /proc/PID/stat}, field 22): the JDK's start instant
 * adds a boot time each JVM reads for itself from {@code /proc/stat}, which can differ by a second
 * between two JVMs, and a live owner then looked gone (its Space deleted under it). Several apps can share one Spaces root:
 * a directory is a leftover only when its owner process is gone.
 */
public final class OwnerMark {

    /** The mark's file name inside the directory. */
    public static final String FILE = "owner";

    private OwnerMark() {}

    /** A process's start in clock ticks after boot ({@code /proc/PID/stat} field 22); empty where unreadable. */
    static Optional<Long> startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Long.parseLong(fields[22 - 3]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Writes this process as the owner of {@code dir}. */
    public static void write(Path dir) throws IOException {
        ProcessHandle self = ProcessHandle.current();
        String text = "pid=" + self.pid() + "\nstarted=" + self.info().startInstant().map(Instant::toString).orElse("") + "\n"
                + startTicks(self.pid()).map(t -> "ticks=" + t + "\n").orElse("");
        Files.writeString(dir.resolve(FILE), text, StandardCharsets.UTF_8);
    }

    /**
     * Whether the process that marked {@code dir} is gone.
     *
     * @return empty when the directory carries no readable mark (not ours to judge)
     */
    public static Optional<Boolean> ownerGone(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties mark = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            mark.load(in);
            long pid = Long.parseLong(mark.getProperty("pid", "").trim());
            String started = mark.getProperty("started", "").trim();
            Optional<ProcessHandle> owner = ProcessHandle.of(pid);
            if (owner.isEmpty() || !owner.get().isAlive()) {
                return Optional.of(true);
            }
            // Same pid, other start time: the pid was reused, the owner is gone.
            String ticks = mark.getProperty("ticks", "").trim();
            if (!ticks.isEmpty()) {
                Optional<Long> now = startTicks(pid);
                return Optional.of(now.isPresent() && now.get() != Long.parseLong(ticks));
            }
            // A mark written before ticks were kept: the JDK's instants, to the second they can differ by.
            Optional<String> actual = owner.get().info().startInstant().map(Instant::toString);
            return Optional.of(!started.isEmpty() && actual.isPresent()
                    && Math.abs(Instant.parse(actual.get()).getEpochSecond() - Instant.parse(started).getEpochSecond()) > 1);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
