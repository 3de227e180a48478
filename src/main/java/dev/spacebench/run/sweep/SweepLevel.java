package dev.spacebench.run.sweep;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.driver.DriverJob;
import dev.spacebench.driver.DriverProcess;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.Measurement;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import dev.spacebench.measure.SpaceTimer;
import dev.spacebench.measure.SweepLoops;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Sweep;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One level of the concurrency sweep, the worker's part: L Spaces created at once, each timed
 * from that moment to its first Ping ({@code sweep.L.space.ready}); then their loops in a
 * measuring driver of their own ({@link SweepLoops}, reached through {@link DriverProcess} as a
 * single Space's loops are); then every Space deleted at once ({@code sweep.L.space.delete}), on
 * every path, once the driver is gone.
 */
final class SweepLevel {

    private static final Logger log = LoggerFactory.getLogger(SweepLevel.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_MS = 100;

    private final ConcurrencySweep.Setup setup;
    private final Plan plan;
    private final int level;
    private final AtomicReferenceArray<Space> made;
    private final ExecutorService pool;
    private final List<Future<?>> submitted = new ArrayList<>();

    SweepLevel(ConcurrencySweep.Setup setup, Plan plan, int level) {
        this.setup = setup;
        this.plan = plan;
        this.level = level;
        this.made = new AtomicReferenceArray<>(level);
        AtomicInteger next = new AtomicInteger(1);
        this.pool = Executors.newFixedThreadPool(level, r -> {
            Thread t = new Thread(r, "sweep-" + level + "-space-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    void run() throws SpaceException, IOException {
        try {
            makeReady();
            List<DriverJob.Target> targets = new ArrayList<>();
            for (int i = 0; i < level; i++) {
                Space space = made.get(i);
                targets.add(new DriverJob.Target(space.target(), space.token(), space.bulkDir()));
            }
            DriverProcess.run(DriverJob.sweepLevel(plan, setup.staging(), targets), setup.driverCpus(), setup.listener(),
                    pid -> log.debug("concurrency level {}: driver pid {}", level, pid));
        } finally {
            stopThreads();
            deleteAll();
        }
    }

    private String sweepId(dev.spacebench.metric.Metric base) {
        return new Sweep(base, level).id();
    }

    /**
     * Creates every Space at once and times each from that moment to its first successful Ping,
     * within the ready timeout, not the single Space's 30 s: L agents starting at once on a small
     * host each take longer to answer (8 process Spaces at load 30 on 2 CPUs missed 30 s), and how
     * much longer is what the burst create measures. The Pings' channels are closed once every
     * Space answered: the driver opens its own.
     */
    private void makeReady() throws SpaceException {
        SpaceTimer timer = timer();
        long start = System.nanoTime();
        List<Future<Sample>> ready = new ArrayList<>();
        for (int i = 0; i < level; i++) {
            int index = i;
            ready.add(submit(() -> {
                SpaceTimer.Ready done = timer.create(start, new SpaceTimer.FirstPingWait(setup.readyTimeout(),
                        "spacebench.space.ready-timeout", "Space " + (index + 1) + ": "), space -> {
                            this.made.set(index, space);
                            Files.createDirectories(SweepLoops.dir(setup.staging(), level, index + 1));
                        });
                try (AgentChannel pinged = done.channel()) {
                    return new Sample(sweepId(SpaceLifecycle.READY), index + 1, Phase.MEASURED, done.readyNs(), 0, true,
                            null, null, level, index + 1);
                }
            }));
        }
        List<Sample> samples = new ArrayList<>();
        for (Future<Sample> f : ready) {
            samples.add(await(f));
        }
        setup.listener().sweepWall(sweepId(SpaceLifecycle.READY), samples.stream().mapToLong(Sample::ns).max().orElse(0));
        samples.forEach(setup.listener()::sample);
    }

    private SpaceTimer timer() {
        return new SpaceTimer(setup.spaces(), setup.channels(), setup.spec(), setup.readyTimeout(), plan.files().chunkBytes());
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
     * Waits for one Space's create, polling for a cancel meanwhile.
     *
     * @throws CancelledException when a cancel was asked
     * @throws SpaceException as the create threw, naming the level and Space
     */
    private <T> T await(Future<T> f) throws SpaceException {
        while (true) {
            try {
                return f.get(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // Progress for the run's page while the Spaces start, as before their loops.
                setup.listener().progress(new Progress(sweepId(SpaceLifecycle.READY), Phase.MEASURED, 0, 0,
                        SweepLoops.unitsBefore(plan, level), Measurement.progressUnits(plan)));
                if (setup.listener().cancelRequested()) {
                    throw new CancelledException();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancelledException();
            } catch (ExecutionException e) {
                throw rethrown(e.getCause());
            }
        }
    }

    private RuntimeException rethrown(Throwable cause) throws SpaceException {
        if (cause instanceof SpaceException e) {
            throw new SpaceException("concurrency level " + level + ": " + e.getMessage());
        }
        return SweepLoops.inLevel(level, cause);
    }

    /** Waits for every create to stop: one in progress ends within the ready timeout. */
    private void stopThreads() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(setup.readyTimeout().toMillis() + 2 * CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("concurrency level {}: some Spaces' creates did not stop; deleting the Spaces made so far", level);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** With every create done and the driver gone: deletes each Space at once, timing each delete. */
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
            if (space == null) {
                continue;
            }
            deleted.add(deleters.submit(() -> {
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
            setup.listener().sweepWall(sweepId(SpaceLifecycle.DELETE), slowest);
            samples.forEach(setup.listener()::sample);
        } catch (RuntimeException e) {
            log.warn("concurrency level {}: could not record the deletes: {}", level, e.toString());
        }
    }
}
