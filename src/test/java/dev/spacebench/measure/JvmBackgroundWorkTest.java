package dev.spacebench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Real threads of this JVM, read from /proc as the run reads them. */
class JvmBackgroundWorkTest {

    @Test
    void theWaitEndsOnlyAfterTheWatchedThreadHasStoppedWorking() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Thread busy = spinner("bgwork-spin-a", 400_000_000L, done);
        busy.start();
        awaitRunning(busy);

        JvmBackgroundWork.Wait wait = JvmBackgroundWork.awaitIdle("bgwork-spin-a"::equals, Duration.ofMillis(50), Duration.ofSeconds(30));

        assertThat(wait.quiet()).isTrue();
        assertThat(done).as("the wait returned while the thread still worked").isTrue();
        busy.join();
    }

    @Test
    void aThreadThatNeverStopsEndsTheWaitAtItsLimitNotQuiet() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = spinUntil(stop, "bgwork-spin-b");
        try {
            awaitRunning(busy);
            JvmBackgroundWork.Wait wait = JvmBackgroundWork.awaitIdle("bgwork-spin-b"::equals, Duration.ofMillis(50), Duration.ofMillis(300));
            assertThat(wait.quiet()).isFalse();
        } finally {
            stop.set(true);
            busy.join();
        }
    }

    @Test
    void idleThreadsEndTheWaitAtOnceAndUnwatchedWorkDoesNotCount() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = spinUntil(stop, "bgwork-spin-c");
        try {
            awaitRunning(busy);
            // Long limit: only the watched threads' idleness can end this wait quietly.
            JvmBackgroundWork.Wait wait = JvmBackgroundWork.awaitIdle("no such thread"::equals, Duration.ofMillis(50), Duration.ofSeconds(30));
            assertThat(wait.quiet()).isTrue();
            assertThat(stop).isFalse();
        } finally {
            stop.set(true);
            busy.join();
        }
    }

    @Test
    void theWatchedNamesAreThoseLinuxShowsForThisJvmsCompilersAndVmThread() throws IOException {
        List<String> names;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            names = tasks.map(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip();
                } catch (IOException e) {
                    return "";
                }
            }).toList();
        }
        assertThat(names).contains("VM Thread");
        assertThat(names).anySatisfy(n -> assertThat(n).startsWith("C2 CompilerThre"));
        assertThat(names.stream().filter(JvmBackgroundWork.JVM_THREADS)).contains("VM Thread")
                .anySatisfy(n -> assertThat(n).startsWith("C1 CompilerThre"))
                .anySatisfy(n -> assertThat(n).startsWith("C2 CompilerThre"));
        assertThat(names.stream().filter(JvmBackgroundWork.JVM_THREADS)).doesNotContain("main", "VM Periodic Tas", "Finalizer");
    }

    @Test
    void theFactSumsTheWaitsAndCountsThoseThatGaveUp() {
        List<JvmBackgroundWork.Wait> waits = List.of(new JvmBackgroundWork.Wait(200_000_000L, true),
                new JvmBackgroundWork.Wait(610_000_000L, true), new JvmBackgroundWork.Wait(3_050_000_000L, false));
        assertThat(JvmBackgroundWork.describe(waits, Duration.ofSeconds(3)))
                .isEqualTo("waited until idle, outside the timed ready: 3 Spaces, 3.86 s in all, longest 3.05 s; 1 gave up after 3.00 s");
        assertThat(JvmBackgroundWork.describe(waits.subList(0, 2), Duration.ofSeconds(3)))
                .isEqualTo("waited until idle, outside the timed ready: 2 Spaces, 0.81 s in all, longest 0.61 s");
        assertThat(JvmBackgroundWork.describe(waits.subList(0, 1), Duration.ofSeconds(3)))
                .isEqualTo("waited until idle, outside the timed ready: 1 Space, 0.20 s in all, longest 0.20 s");
        assertThat(JvmBackgroundWork.describeLoops(waits.subList(1, 2), Duration.ofSeconds(3)))
                .isEqualTo("waited until idle, outside the timed loops: 1 metric, 0.61 s in all, longest 0.61 s");
        // spacebench.space.quiet-before-start=0: no wait, and the fact says so.
        assertThat(JvmBackgroundWork.awaitIdle(Duration.ZERO, Duration.ZERO).waitedNs()).isZero();
        assertThat(JvmBackgroundWork.describe(List.of(new JvmBackgroundWork.Wait(0, false)), Duration.ZERO))
                .isEqualTo("not waited for (spacebench.space.quiet-before-start=0)");
    }

    /** A started thread named {@code name} that spins until {@code stop} is set. */
    private static Thread spinUntil(AtomicBoolean stop, String name) {
        Thread thread = new Thread(() -> {
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        }, name);
        thread.start();
        return thread;
    }

    private static Thread spinner(String name, long forNs, AtomicBoolean done) {
        return new Thread(() -> {
            long end = System.nanoTime() + forNs;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            done.set(true);
        }, name);
    }

    /** Until the thread shows under its Linux name (the JVM names it once it runs). */
    private static void awaitRunning(Thread thread) throws InterruptedException {
        for (int i = 0; i < 500 && JvmBackgroundWork.busyNs(thread.getName()::equals) <= 0; i++) {
            Thread.sleep(2);
        }
        assertThat(JvmBackgroundWork.busyNs(thread.getName()::equals)).as("the thread shows in /proc").isPositive();
    }
}
