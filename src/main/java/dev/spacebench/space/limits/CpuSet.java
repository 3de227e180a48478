package dev.spacebench.space.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CPUs this process may run on, and picking some of them for a Space's affinity. */
public final class CpuSet {

    private CpuSet() {}

    /**
     * The CPU numbers this process may use (its {@code Cpus_allowed_list}), ascending; all online
     * CPUs by count if that cannot be read.
     */
    public static List<Integer> allowed() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parse(line.substring("Cpus_allowed_list:".length()).trim());
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // fall through to the count
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    /** Parses a kernel CPU list such as {@code 0-3,8,10-11}. */
    public static List<Integer> parse(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first = Integer.parseInt((dash < 0 ? part : part.substring(0, dash)).trim());
            int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1).trim());
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    /** Formats CPU numbers as a list {@code taskset -c} takes, e.g. {@code 0,1,2}. */
    public static String format(List<Integer> cpus) {
        return String.join(",", cpus.stream().map(String::valueOf).toList());
    }
}
