package dev.spacebench.measure;

import dev.spacebench.channel.Channel;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.Sweep;
import dev.spacebench.metric.Transfer;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The loops of one concurrency sweep level (issue 13), run in the measuring driver (issue 28)
 * against L Spaces the worker made: per exec metric one serial loop per Space, on a thread of its
 * own, warm-ups first (each Space on its own), the measured iterations started together behind a
 * latch; then the optional file size the same way. The worker times the Spaces' creation and
 * deletion ({@code sweep.L.space.ready}, {@code .delete}); this times their loops.
 *
 * <p>The Spaces' threads keep their samples in memory until the metric ends at every Space and
 * the calling thread hands them to the listener, so that nothing but the loops runs meanwhile. The
 * calling thread reports progress and polls for a cancel every {@value #POLL_MS} ms; a cancel or a
 * failure in one Space stops the others after their current iteration, and every thread has
 * stopped when {@link #run()} returns or throws.
 */
public final class SweepLoops {

    private static final long POLL_MS = 100;
    /** How long the Spaces' threads may take to finish their current iteration once told to stop. */
    private static final long STOP_WAIT_MS = 70_000;

    private final Channel[] open;
    private final Path staging;
    private final Plan plan;
    private final int level;
    private final MeasureListener listener;
    private final long total;
    private final AtomicLong done;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    /** Each Space's samples of the loop in progress, not yet handed to the listener; handed over on every path. */
    private List<SampleColumns> pending = List.of();
    /** What the progress shows while the Spaces' threads run: their warm-ups, or the measured loops. */
    private Phase phase = Phase.MEASURED;

    /**
     * @param open a channel to each Space of the level, Space i at index i − 1 (their count is the level)
     * @param staging the run's directory, with {@code sweep-L-i} in it for Space i's files
     * @param listener called from the calling thread only
     */
    public SweepLoops(List<? extends Channel> open, Path staging, Plan plan, MeasureListener listener) {
        this.open = open.toArray(Channel[]::new);
        this.staging = staging;
        this.plan = plan;
        this.level = this.open.length;
        this.listener = listener;
        this.total = Measurement.progressUnits(plan);
        this.done = new AtomicLong(unitsBefore(plan, level));
        AtomicInteger next = new AtomicInteger(1);
        this.pool = Executors.newFixedThreadPool(level, r -> {
            Thread t = new Thread(r, "sweep-" + level + "-space-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The sweep's progress units: per level of L Spaces, L × (metrics × (n + exec warm-ups) + file
     * iterations × {@link Measurement#fileIterationUnits(long)}).
     */
    public static long units(Plan plan) {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return 0;
        }
        long spaces = sweep.levels().stream().mapToLong(Integer::longValue).sum();
        return spaces * unitsPerSpace(plan);
    }

    /** Progress units of the whole plan done before level {@code level} of its sweep starts (its levels ascend). */
    public static long unitsBefore(Plan plan, int level) {
        long before = Measurement.progressUnits(plan) - units(plan);
        for (int l : plan.concurrency().levels()) {
            if (l >= level) {
                break;
            }
            before += l * unitsPerSpace(plan);
        }
        return before;
    }

    private static long unitsPerSpace(Plan plan) {
        ConcurrencyPlan sweep = plan.concurrency();
        long perSpace = (long) sweep.metrics().size() * (sweep.n() + plan.exec().warmups());
        if (sweep.fileBytes() != null) {
            perSpace += (long) (sweep.fileN() + plan.files().warmups()) * Measurement.fileIterationUnits(sweep.fileBytes());
        }
        return perSpace;
    }

    /**
     * @return progress units done over the whole plan after this level
     * @throws CancelledException when the listener asks to stop
     * @throws SpaceLostException when a Space's agent stops answering or a disk is full (naming the level)
     * @throws AbortedException after {@link Measurement#MAX_CONSECUTIVE_FAILURES} failures in a row in one Space (naming the level)
     */
    public long run() {
        try {
            ConcurrencyPlan sweep = plan.concurrency();
            boolean first = true;
            for (ExecRoundTrip metric : PlanMetrics.exec(sweep)) {
                int agentWarmup = first ? plan.exec().agentWarmupCalls() : 0;
                first = false;
                String name = metric.command().wireName();
                loops(sweepId(metric), sweep.n(),
                        execPlan(name, 0, plan.exec().warmups(), agentWarmup), execPlan(name, sweep.n(), 0, 0));
            }
            if (sweep.fileBytes() != null) {
                loops(sweepId(Transfer.upload(sweep.fileBytes())), sweep.fileN(),
                        filePlan(sweep.fileBytes(), 0, plan.files().warmups()), filePlan(sweep.fileBytes(), sweep.fileN(), 0));
            }
            return done.get();
        } finally {
            stop.set(true);
            stopThreads();
            handOver();
        }
    }

    /** Gives the listener what the Spaces' threads took and it has not had yet (call with the threads stopped). */
    private void handOver() {
        List<SampleColumns> taken = pending;
        pending = List.of();
        taken.forEach(samples -> samples.replay(listener::sample));
    }

    private String sweepId(Metric base) {
        return new Sweep(base, level).id();
    }

    /**
     * One metric at this level: each Space warms up on its own, then all start the measured loop
     * together; the wall time runs from that start to the last Space's last sample.
     */
    private void loops(String id, int n, Plan warm, Plan measured) {
        runAll(warm, id);
        CountDownLatch waiting = new CountDownLatch(level);
        CountDownLatch go = new CountDownLatch(1);
        long[] ends = new long[level];
        List<Future<?>> loops = inEverySpace((index, samples) -> {
            waiting.countDown();
            while (!go.await(POLL_MS, TimeUnit.MILLISECONDS)) {
                if (stop.get()) {
                    throw new CancelledException();
                }
            }
            new Measurement(open[index], dir(index), samples).run(measured);
            ends[index] = System.nanoTime();
        });
        try {
            while (!waiting.await(POLL_MS, TimeUnit.MILLISECONDS)) {
                poll(id, n);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.set(true);
            throw new CancelledException();
        }
        phase = Phase.MEASURED;
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> f : loops) {
            await(f, id, n);
        }
        long last = 0;
        for (long end : ends) {
            last = Math.max(last, end);
        }
        listener.sweepWall(id, last - start);
        if (measured.files().sizes().size() == 1) {
            listener.sweepWall(sweepId(Transfer.download(measured.files().sizes().get(0).bytes())), last - start);
        }
        handOver();
        // The last iteration of the metric: the worker flushes and updates the figures so far.
        listener.progress(new Progress(id, Phase.MEASURED, n, n, done.get(), total));
    }

    /** Runs {@code part} in every Space at once, not synchronised; its samples go to the listener afterwards. */
    private void runAll(Plan part, String id) {
        phase = Phase.WARMUP;
        List<Future<?>> loops = inEverySpace((index, samples) -> new Measurement(open[index], dir(index), samples).run(part));
        for (Future<?> f : loops) {
            await(f, id, 0);
        }
        handOver();
    }

    /** What one Space's thread runs: {@code samples} takes what it measures, held back until {@link #handOver()}. */
    private interface SpaceTask {
        void run(int index, MeasureListener samples) throws Exception;
    }

    /** Starts {@code task} on every Space's own thread, each with its own held-back samples (the new {@link #pending}). */
    private List<Future<?>> inEverySpace(SpaceTask task) {
        List<SampleColumns> taken = new ArrayList<>();
        pending = taken;
        List<Future<?>> tasks = new ArrayList<>();
        for (int i = 0; i < level; i++) {
            int index = i;
            SampleColumns mine = new SampleColumns(level, index + 1);
            taken.add(mine);
            tasks.add(pool.submit(() -> {
                task.run(index, buffer(mine));
                return null;
            }));
        }
        return tasks;
    }

    /** Space i's directory for its files: {@code sweep-L-i} in the run's, made by the worker with the Space. */
    public static Path dir(Path staging, int level, int space) {
        return staging.resolve("sweep-" + level + "-" + space);
    }

    private Path dir(int index) {
        return dir(staging, level, index + 1);
    }

    /** What one Space's loop reports to: its samples renamed to the sweep's ids and kept; progress counted; the stop flag as cancel. */
    private MeasureListener buffer(SampleColumns into) {
        return new MeasureListener() {
            private long lastDone;
            /** The last metric's id and its sweep id: worked out once a metric, not once a sample. */
            private String from;
            private String to;

            @Override
            public void sample(Sample s) {
                if (!s.metric().equals(from)) {
                    from = s.metric();
                    to = sweepId(Metric.of(from));
                }
                into.add(to, s);
            }

            @Override
            public void progress(Progress p) {
                done.addAndGet(p.done() - lastDone);
                lastDone = p.done();
            }

            @Override
            public boolean cancelRequested() {
                return stop.get();
            }
        };
    }

    /**
     * Waits for one Space's task, polling for a cancel meanwhile.
     *
     * @throws CancelledException when a cancel was asked
     * @throws SpaceLostException, AbortedException as the task threw, naming the level and Space
     */
    private void await(Future<?> f, String id, int n) {
        while (true) {
            try {
                f.get(POLL_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                poll(id, n);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop.set(true);
                throw new CancelledException();
            } catch (ExecutionException e) {
                stop.set(true);
                throw rethrown(e.getCause());
            }
        }
    }

    /** Progress for the run's page, and the cancel check. */
    private void poll(String id, int n) {
        listener.progress(new Progress(id, phase, 0, n, done.get(), total));
        if (listener.cancelRequested()) {
            stop.set(true);
            throw new CancelledException();
        }
    }

    private RuntimeException rethrown(Throwable cause) {
        return inLevel(level, cause);
    }

    /**
     * What a Space's task at level {@code level} threw, as the sweep throws it: its message led by
     * "concurrency level L: " (a cancel as it is; a checked exception or an error wrapped).
     */
    public static RuntimeException inLevel(int level, Throwable cause) {
        String where = "concurrency level " + level + ": ";
        if (cause instanceof CancelledException e) {
            return e;
        }
        if (cause instanceof SpaceLostException e) {
            return new SpaceLostException(where + e.getMessage(), e.getCause());
        }
        if (cause instanceof AbortedException e) {
            return new AbortedException(where + e.getMessage(), e.getCause());
        }
        if (cause instanceof IOException e) {
            return new UncheckedIOException(where + e.getMessage(), e);
        }
        if (cause instanceof RuntimeException e) {
            return e;
        }
        return new IllegalStateException(where + cause, cause);
    }

    /** Waits for every Space's thread to stop: each checks the stop flag between iterations. */
    private void stopThreads() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
                System.err.println("concurrency level " + level + ": some Spaces' threads did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Plan execPlan(String metric, int n, int warmups, int agentWarmupCalls) {
        return new Plan(new ExecPlan(List.of(metric), n, warmups, agentWarmupCalls), new FilePlan(List.of(), 0, Long.MAX_VALUE, 0),
                new FloorPlan(false, 1, 0));
    }

    private Plan filePlan(long bytes, int n, int warmups) {
        FilePlan files = plan.files();
        return new Plan(new ExecPlan(List.of(), 1, 0, 0),
                new FilePlan(List.of(new FileSize(bytes, n)), warmups, files.bulkThresholdBytes(), files.chunkBytes()),
                new FloorPlan(false, 1, 0));
    }
}
