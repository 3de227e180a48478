package dev.spacebench.measure;

import dev.spacebench.channel.Channel;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Sweep;
import dev.spacebench.metric.Transfer;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One level of the concurrency sweep: L Spaces created at once, each timed from that moment to its
 * first Ping ({@code sweep.L.space.ready}); then per exec metric one serial loop per Space, on a
 * thread of its own, warm-ups first (each Space on its own), the measured iterations started
 * together behind a latch; then the optional file size the same way; then every Space deleted at
 * once ({@code sweep.L.space.delete}), on every path.
 *
 * <p>The Spaces' threads keep their samples in memory until the metric ends at every Space and the
 * calling thread hands them to the listener, so that no database write competes with the loops.
 * The calling thread polls for a cancel every 100 ms meanwhile; a cancel or a failure in one Space
 * stops the others after their current iteration, and the level's Spaces are deleted after every
 * thread has stopped.
 */
final class SweepLevel {

    private static final Logger log = LoggerFactory.getLogger(SweepLevel.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_MS = 100;

    private final ConcurrencySweep.Setup setup;
    private final Plan plan;
    private final int level;
    private final long total;
    private final AtomicLong done;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicReferenceArray<Space> made;
    private final Channel[] open;
    private final ExecutorService pool;
    private final List<Future<?>> submitted = new ArrayList<>();
    /** Each Space's samples of the loop in progress, not yet handed to the listener; handed over on every path. */
    private List<SampleColumns> pending = List.of();
    /** What the progress shows while the Spaces' threads run: their warm-ups, or the measured loops. */
    private Phase phase = Phase.MEASURED;

    SweepLevel(ConcurrencySweep.Setup setup, Plan plan, int level, long done, long total) {
        this.setup = setup;
        this.plan = plan;
        this.level = level;
        this.done = new AtomicLong(done);
        this.total = total;
        this.made = new AtomicReferenceArray<>(level);
        this.open = new Channel[level];
        AtomicInteger next = new AtomicInteger(1);
        this.pool = Executors.newFixedThreadPool(level, r -> {
            Thread t = new Thread(r, "sweep-" + level + "-space-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    /** @return progress units done over the whole plan after this level */
    long run() throws SpaceException {
        try {
            makeReady();
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
            deleteAll();
        }
    }

    /** Gives the listener what the Spaces' threads took and it has not had yet (call with the threads stopped). */
    private void handOver() {
        List<SampleColumns> taken = pending;
        pending = List.of();
        try {
            taken.forEach(samples -> samples.replay(setup.listener()::sample));
        } catch (RuntimeException e) {
            log.warn("concurrency level {}: could not record the last samples: {}", level, e.toString());
        }
    }

    private String sweepId(Metric base) {
        return new Sweep(base, level).id();
    }

    /**
     * Creates every Space at once and times each from that moment to its first successful Ping,
     * within the ready timeout, not the single Space's 30 s: L agents starting at once on a small
     * host each take longer to answer (8 process Spaces at load 30 on 2 CPUs missed 30 s), and how
     * much longer is what the burst create measures.
     */
    private void makeReady() throws SpaceException {
        SpaceTimer timer = timer();
        long start = System.nanoTime();
        List<Future<Sample>> ready = new ArrayList<>();
        for (int i = 0; i < level; i++) {
            int index = i;
            ready.add(submit(() -> {
                SpaceTimer.Ready made = timer.create(start, new SpaceTimer.FirstPingWait(setup.readyTimeout(),
                        "spacebench.space.ready-timeout", "Space " + (index + 1) + ": "), space -> {
                            this.made.set(index, space);
                            Files.createDirectories(setup.staging().resolve("sweep-" + level + "-" + (index + 1)));
                        });
                open[index] = made.channel();
                return new Sample(sweepId(SpaceLifecycle.READY), index + 1, Phase.MEASURED, made.readyNs(), 0, true,
                        null, null, level, index + 1);
            }));
        }
        List<Sample> samples = new ArrayList<>();
        for (Future<Sample> f : ready) {
            samples.add(await(f, sweepId(SpaceLifecycle.READY), 0));
        }
        wallTo(sweepId(SpaceLifecycle.READY), samples.stream().mapToLong(Sample::ns).max().orElse(0));
        samples.forEach(setup.listener()::sample);
    }

    private SpaceTimer timer() {
        return new SpaceTimer(setup.spaces(), setup.channels(), setup.spec(), setup.readyTimeout(), plan.files().chunkBytes());
    }

    /**
     * One metric at this level: each Space warms up on its own, then all start the measured loop
     * together; the wall time runs from that start to the last Space's last sample.
     */
    private void loops(String id, int n, Plan warm, Plan measured) throws SpaceException {
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
        wallTo(id, last - start);
        if (measured.files().sizes().size() == 1) {
            wallTo(sweepId(Transfer.download(measured.files().sizes().get(0).bytes())), last - start);
        }
        handOver();
        // The last iteration of the metric: the listener flushes and updates the figures so far.
        setup.listener().progress(new Progress(id, Phase.MEASURED, n, n, done.get(), total));
    }

    /** Runs {@code part} in every Space at once, not synchronised; its samples go to the listener afterwards. */
    private void runAll(Plan part, String id) throws SpaceException {
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
            tasks.add(submit(() -> {
                task.run(index, buffer(mine));
                return null;
            }));
        }
        return tasks;
    }

    private Path dir(int index) {
        return setup.staging().resolve("sweep-" + level + "-" + (index + 1));
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

    private interface Task<T> {
        T call() throws Exception;
    }

    private <T> Future<T> submit(Task<T> task) {
        Future<T> f = pool.submit(task::call);
        submitted.add(f);
        return f;
    }

    /**
     * Waits for one Space's task, polling for a cancel meanwhile.
     *
     * @throws CancelledException when a cancel was asked
     * @throws SpaceException, SpaceLostException, AbortedException as the task threw, naming the level and Space
     */
    private <T> T await(Future<T> f, String id, int n) throws SpaceException {
        while (true) {
            try {
                return f.get(POLL_MS, TimeUnit.MILLISECONDS);
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
        if (id != null) {
            setup.listener().progress(new Progress(id, phase, 0, n, done.get(), total));
        }
        if (setup.listener().cancelRequested()) {
            stop.set(true);
            throw new CancelledException();
        }
    }

    private RuntimeException rethrown(Throwable cause) throws SpaceException {
        String where = "concurrency level " + level + ": ";
        if (cause instanceof SpaceException e) {
            throw new SpaceException(where + e.getMessage());
        }
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

    /** The sweep figure's wall time, for its rate per second. */
    private void wallTo(String id, long ns) {
        setup.listener().sweepWall(id, ns);
    }

    /** Waits for every Space's thread to stop: each checks the stop flag between iterations; a create in progress ends within the ready timeout. */
    private void stopThreads() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(setup.readyTimeout().toMillis() + 2 * CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("concurrency level {}: some Spaces' threads did not stop; deleting the Spaces made so far", level);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** With every thread stopped: closes each channel and deletes each Space at once, timing each delete. */
    private void deleteAll() {
        ExecutorService deleters = Executors.newFixedThreadPool(level, r -> {
            Thread t = new Thread(r, "sweep-" + level + "-delete");
            t.setDaemon(true);
            return t;
        });
        SpaceTimer timer = timer();
        List<Future<Sample>> deleted = new ArrayList<>();
        for (int i = 0; i < level; i++) {
            int index = i;
            Space space = made.get(i);
            Channel channel = open[i];
            if (space == null) {
                continue;
            }
            deleted.add(deleters.submit(() -> {
                if (channel != null) {
                    channel.close();
                }
                long start = System.nanoTime();
                String error = null;
                long ns;
                try {
                    ns = timer.delete(space);
                } catch (RuntimeException e) {
                    ns = System.nanoTime() - start;
                    error = e.getMessage() == null ? e.toString() : e.getMessage();
                    log.warn("concurrency level {}: deleting Space {} failed: {}", level, index + 1, error);
                }
                return new Sample(sweepId(SpaceLifecycle.DELETE), index + 1, Phase.MEASURED, ns, 0,
                        error == null, error, null, level, index + 1);
            }));
        }
        long slowest = 0;
        List<Sample> samples = new ArrayList<>();
        for (Future<Sample> f : deleted) {
            try {
                Sample s = f.get();
                samples.add(s);
                slowest = Math.max(slowest, s.ns());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                log.warn("concurrency level {}: a delete failed: {}", level, e.getCause().toString());
            }
        }
        deleters.shutdown();
        if (samples.isEmpty()) {
            return;
        }
        try {
            wallTo(sweepId(SpaceLifecycle.DELETE), slowest);
            samples.forEach(setup.listener()::sample);
        } catch (RuntimeException e) {
            log.warn("concurrency level {}: could not record the deletes: {}", level, e.toString());
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
