package dev.spacebench.floor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A process's load-independent counters from Linux's /proc at one moment: CPU time (its own and its
 * reaped children's) and, per thread, its name and context switches. The difference of two
 * snapshots over a loop, divided by its round trips, is what one round trip costs whatever else
 * runs on the host (a loaded host stretches wall time, not CPU time or the number of wake-ups).
 *
 * @param cpuNs user + system time of every thread the process ever had, in ns (clock-tick
 *     resolution, 10 ms at USER_HZ 100: loops of a few thousand round trips keep the error per
 *     round trip to a few µs)
 * @param childrenCpuNs user + system time of its waited-for children, in ns (same resolution)
 * @param threads by thread id: its name and switch counts; threads that ended are missing
 */
record ProcCounters(long cpuNs, long childrenCpuNs, Map<Long, ThreadCounts> threads) {

    /** Linux's USER_HZ, fixed at 100 on every architecture the kernel exports to user space. */
    private static final long NS_PER_TICK = 10_000_000L;

    /**
     * @param name the thread's name as the kernel keeps it (at most 15 characters)
     * @param voluntary times it gave up the CPU to wait (a wake-up follows each)
     * @param involuntary times it was preempted
     */
    record ThreadCounts(String name, long voluntary, long involuntary) {}

    /**
     * @throws IOException if the process is gone or /proc cannot be read
     */
    static ProcCounters of(long pid) throws IOException {
        Path proc = Path.of("/proc", Long.toString(pid));
        String stat = Files.readString(proc.resolve("stat"));
        // Fields after the command name, which is in parentheses and may itself hold spaces.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NS_PER_TICK;
        long children = (Long.parseLong(f[13]) + Long.parseLong(f[14])) * NS_PER_TICK;
        Map<Long, ThreadCounts> threads = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path task : tasks) {
                try {
                    threads.put(Long.parseLong(task.getFileName().toString()), thread(task));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we read it
                }
            }
        }
        return new ProcCounters(cpu, children, threads);
    }

    private static ThreadCounts thread(Path task) throws IOException {
        String name = Files.readString(task.resolve("comm")).strip();
        long voluntary = 0;
        long involuntary = 0;
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return new ThreadCounts(name, voluntary, involuntary);
    }

    /**
     * Switches from {@code before} to this snapshot, summed per thread name with digits folded to
     * {@code #} ({@code grpc-default-ex}, {@code agent-io}, {@code process reaper}): a thread that
     * started in between counts from zero.
     *
     * @return name → {voluntary, involuntary}
     */
    Map<String, long[]> switchesSince(ProcCounters before) {
        Map<String, long[]> byName = new HashMap<>();
        threads.forEach((tid, now) -> {
            ThreadCounts then = before.threads.getOrDefault(tid, new ThreadCounts(now.name(), 0, 0));
            long[] sum = byName.computeIfAbsent(now.name().replaceAll("[0-9]+", "#"), k -> new long[2]);
            sum[0] += now.voluntary() - then.voluntary();
            sum[1] += now.involuntary() - then.involuntary();
        });
        return byName;
    }
}
