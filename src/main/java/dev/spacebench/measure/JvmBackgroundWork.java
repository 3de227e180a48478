package dev.spacebench.measure;

import dev.spacebench.run.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Waits until this JVM's own background work (its JIT compilers, garbage collector and VM thread)
 * has gone idle, so that a Space's timed start does not share the CPU with it. Why: measured in a
 * full app's run on this 2-vCPU host, the app's C2 compiler alone took 44–271 ms of CPU inside
 * each of the first Spaces' ready windows (compiling what the floor's loops had made hot), next to
 * an agent whose whole start is 560–670 ms of CPU.
 *
 * <p>Read from {@code /proc/self/task/TID/schedstat} (Linux): a thread counts as busy while its
 * time on a CPU or waiting in a run queue grows, so a compiler thread that is runnable but gets no
 * CPU on a loaded host is busy too. Where there is no such file, nothing is waited for.
 */
public final class JvmBackgroundWork {

    /** The JVM's own threads as Linux names them (15 characters at most). */
    static final Predicate<String> JVM_THREADS = name -> name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")
            || name.startsWith("GC Thread") || name.startsWith("G1 Conc") || name.startsWith("G1 Refine")
            || name.startsWith("G1 Main Marker") || name.equals("VM Thread") || name.equals("Sweeper thread");
    /** Busy time the watched threads may add in one quiet window (e.g. a periodic safepoint). */
    static final long SLACK_NS = 2_000_000;
    private static final Path TASKS = Path.of("/proc/self/task");

    private JvmBackgroundWork() {}

    /**
     * @param waitedNs how long the wait took
     * @param quiet false when {@code atMost} ran out first (or the wait was interrupted)
     */
    public record Wait(long waitedNs, boolean quiet) {
    }

    /** The Space fact that says what the waits before the run's Spaces took. */
    public static final String FACT = "app's JIT and GC before each Space's start";

    /**
     * The value of {@link #FACT}, e.g. {@code "waited until idle: 7 Spaces, 1.24 s in all, longest
     * 0.61 s; 1 gave up after 3.00 s"} (the last part only when some did), seconds with 2 decimals;
     * with {@code atMost} 0, that no wait was made.
     */
    public static String describe(List<Wait> waits, Duration atMost) {
        return describe(waits, atMost, "outside the timed ready", "Space", "spacebench.space.quiet-before-start");
    }

    /**
     * The Space fact that says what the waits before each metric's measured loop took (after its
     * warm-ups, which leave the app's JIT compiling what they made hot).
     */
    public static final String LOOPS_FACT = "app's JIT and GC before each metric's measured loop";

    /**
     * The value of {@link #LOOPS_FACT}, e.g. {@code "waited until idle, outside the timed loops: 3
     * metrics, 0.41 s in all, longest 0.30 s"}, as {@link #describe(List, Duration)} words it.
     */
    public static String describeLoops(List<Wait> waits, Duration atMost) {
        return describe(waits, atMost, "outside the timed loops", "metric", "spacebench.space.quiet-before-loops");
    }

    /** @param what the singular of what waited ("Space"): "1 Space", "2 Spaces" */
    private static String describe(List<Wait> waits, Duration atMost, String where, String what, String setting) {
        if (atMost.isZero()) {
            return "not waited for (" + setting + "=0)";
        }
        long total = waits.stream().mapToLong(Wait::waitedNs).sum();
        long longest = waits.stream().mapToLong(Wait::waitedNs).max().orElse(0);
        long gaveUp = waits.stream().filter(w -> !w.quiet()).count();
        String text = String.format(Locale.ROOT, "waited until idle, %s: %d %s, %.2f s in all, longest %.2f s",
                where, waits.size(), waits.size() == 1 ? what : what + "s", total / 1e9, longest / 1e9);
        return gaveUp == 0 ? text
                : text + String.format(Locale.ROOT, "; %d gave up after %.2f s", gaveUp, atMost.toMillis() / 1e3);
    }

    /**
     * The wait a run makes before each metric's measured loop ({@code RunRecorder#beforeMeasured}):
     * {@link #awaitIdle(Duration, Duration)}, each wait added to {@code waits}; none with {@code atMost} 0.
     */
    public static Runnable beforeEachLoop(List<Wait> waits, Duration window, Duration atMost) {
        return () -> waits.add(awaitIdle(window, atMost));
    }

    /**
     * Returns once the JVM's own threads ({@link #JVM_THREADS}) have been idle, within
     * {@link #SLACK_NS}, for a whole {@code window}, or after {@code atMost}.
     */
    public static Wait awaitIdle(Duration window, Duration atMost) {
        return awaitIdle(JVM_THREADS, window, atMost);
    }

    /** As {@link #awaitIdle(Duration, Duration)}, for the threads whose Linux name {@code watched} accepts. */
    static Wait awaitIdle(Predicate<String> watched, Duration window, Duration atMost) {
        if (atMost.isZero()) {
            return new Wait(0, false);
        }
        long start = System.nanoTime();
        long deadline = start + atMost.toNanos();
        // Named once: the polls then read only these threads' schedstat, a few files, not every thread's.
        List<Path> threads = watchedThreads(watched);
        if (threads == null) {
            return new Wait(0, true);
        }
        long before = busyNs(threads);
        while (true) {
            try {
                Thread.sleep(window.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Wait(System.nanoTime() - start, false);
            }
            long now = busyNs(threads);
            if (now - before <= SLACK_NS) {
                return new Wait(System.nanoTime() - start, true);
            }
            if (System.nanoTime() >= deadline) {
                return new Wait(System.nanoTime() - start, false);
            }
            before = now;
        }
    }

    /**
     * Run plus run-queue time of the threads whose Linux name {@code watched} accepts so far, in
     * ns; -1 where the kernel gives no schedstat.
     */
    static long busyNs(Predicate<String> watched) {
        List<Path> threads = watchedThreads(watched);
        return threads == null ? -1 : busyNs(threads);
    }

    /** This JVM's threads (their /proc task directories) whose Linux name {@code watched} accepts; null without schedstat. */
    private static List<Path> watchedThreads(Predicate<String> watched) {
        if (!Files.isReadable(TASKS.resolve(Long.toString(ProcessHandle.current().pid())).resolve("schedstat"))) {
            return null;
        }
        try (Stream<Path> list = Files.list(TASKS)) {
            return list.filter(task -> {
                try {
                    return watched.test(Files.readString(task.resolve("comm")).strip());
                } catch (IOException | RuntimeException e) {
                    return false; // ended meanwhile
                }
            }).toList();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Run plus run-queue time of these threads so far, in ns (a thread that ended meanwhile drops out, which can only end a wait early). */
    private static long busyNs(List<Path> threads) {
        long sum = 0;
        for (Path task : threads) {
            try {
                String[] fields = Files.readString(task.resolve("schedstat")).strip().split(" ");
                sum += Long.parseLong(fields[0]) + Long.parseLong(fields[1]);
            } catch (IOException | RuntimeException e) {
                // the thread ended meanwhile: leave it out
            }
        }
        return sum;
    }
}
