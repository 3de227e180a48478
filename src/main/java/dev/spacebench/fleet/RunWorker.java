package dev.spacebench.fleet;

import dev.spacebench.run.InterruptedRunFigures;
import dev.spacebench.run.QueueWaker;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunExecution;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunStatus;
import dev.spacebench.database.DatabaseDisk;
import jakarta.annotation.PreDestroy;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Takes QUEUED runs from the database, oldest first, up to a configured number at a time, only
 * those it can make (see {@link RunClaims}: SKIP LOCKED on PostgreSQL, so several machines share one
 * queue without taking the same run twice). A run whose lease it lost stops. With
 * {@code spacebench.worker.enabled=false} it takes nothing (the bench command runs its one run
 * itself; a server beside a fleet of workers).
 */
@Component
public class RunWorker implements QueueWaker {

    private static final Logger log = LoggerFactory.getLogger(RunWorker.class);

    private final RunRepository runs;
    private final RunClaims claims;
    private final HeldRuns held;
    private final Leases leases;
    private final RunExecution execution;
    private final InterruptedRunFigures figures;
    private final TransactionTemplate transactions;
    private final int maxConcurrent;
    private final String workerId;
    private final boolean enabled;
    private final ExecutorService pool;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Set once {@link #interruptLeftovers} has run: no claim before (the scheduler starts before the app is ready). */
    private final AtomicBoolean recovered = new AtomicBoolean();
    private final DatabaseDisk disk;

    public RunWorker(RunRepository runs, RunClaims claims, HeldRuns held, Leases leases, RunExecution execution, InterruptedRunFigures figures,
                     TransactionTemplate transactions, WorkerSettings settings, WorkerIdentity identity, DatabaseDisk disk) {
        this.disk = disk;
        int maxConcurrent = settings.maxConcurrentRuns();
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("spacebench.worker.max-concurrent-runs must be at least 1, was " + maxConcurrent);
        }
        this.runs = runs;
        this.claims = claims;
        this.held = held;
        this.leases = leases;
        this.execution = execution;
        this.figures = figures;
        this.transactions = transactions;
        this.maxConcurrent = maxConcurrent;
        this.workerId = identity.workerId();
        this.enabled = identity.enabled();
        this.pool = Executors.newFixedThreadPool(maxConcurrent, r -> {
            Thread t = new Thread(r, "run-worker");
            t.setDaemon(false);
            return t;
        });
    }

    public String workerId() {
        return workerId;
    }

    /**
     * Runs this worker left RUNNING when it last stopped can never finish: mark them INTERRUPTED,
     * with the figures of what they stored ({@link InterruptedRunFigures}). Only then does this
     * worker claim anything: {@link #poll} does nothing until this has returned, so a run this
     * process has just claimed is never taken for one the dead process left.
     *
     * <p>On a database only this process can open (H2 without AUTO_SERVER) every run RUNNING under
     * this worker id was the dead process's. On a shared one (PostgreSQL, H2 with AUTO_SERVER)
     * another live app may carry the same worker id (two apps on one host): only runs whose lease
     * has lapsed are touched; one still leased is left to {@link dev.spacebench.fleet.LeaseReaper}
     * if its lease does lapse.
     */
    @EventListener(ApplicationReadyEvent.class)
    public void interruptLeftovers() {
        try {
            // A disabled worker (the bench command beside a server on one database) must not touch the
            // server's runs: they are RUNNING under the same host name.
            if (!enabled) {
                return;
            }
            for (Run run : runs.findByStatusAndWorker(RunStatus.RUNNING, workerId)) {
                interrupt(run.getId());
            }
        } finally {
            // Even when recovery failed (the database away): it is not tried again, so a later claim is safe.
            recovered.set(true);
        }
        poll();
    }

    /**
     * Ends a leftover run INTERRUPTED with its figures computed from the samples it stored, in one
     * transaction; if they cannot be computed, it still ends, without them (its samples are kept).
     */
    private void interrupt(long id) {
        // When the database's disk was full then, the run's end could not be written, not even on the room kept in reserve.
        String reason = disk.fullWhenLastStopped()
                .map(full -> "the database's disk was full when the app stopped while this run was RUNNING (" + full
                        + "; found at the next start): the run's end could not be written, not even on the room the app kept "
                        + "in reserve; the samples saved before are kept")
                .orElse("the app stopped while this run was RUNNING (found at the next start)");
        try {
            Long kept = transactions.execute(tx -> {
                Run run = runs.lockById(id).orElse(null);
                if (run == null || run.getStatus() != RunStatus.RUNNING || !workerId.equals(run.getWorker())
                        || (leases.shared() && leases.live(id))) {
                    return null;
                }
                run.finish(RunStatus.INTERRUPTED, reason, Instant.now());
                return figures.compute(id);
            });
            if (kept != null) {
                log.warn("run {} was RUNNING when the app last stopped: now INTERRUPTED, its figures computed from the {} samples "
                        + "it stored", id, kept);
            }
        } catch (RuntimeException e) {
            log.warn("run {}: could not compute its figures from its stored samples: {}; INTERRUPTED without them", id, e.toString());
            transactions.executeWithoutResult(tx -> runs.lockById(id)
                    .filter(run -> run.getStatus() == RunStatus.RUNNING && workerId.equals(run.getWorker())
                            && !(leases.shared() && leases.live(id)))
                    .ifPresent(run -> run.finish(RunStatus.INTERRUPTED, reason, Instant.now())));
        }
    }

    /** True once start-up recovery ({@link #interruptLeftovers}) has run, whether or not it could do its work. */
    public boolean recovered() {
        return recovered.get();
    }

    /** Claims queued runs while there is room. Called on a schedule and after each submit. */
    @Scheduled(fixedDelayString = "${spacebench.worker.poll-interval-ms:500}")
    public synchronized void poll() {
        // Nothing is claimed before start-up recovery ran, nor while the database's disk is full (a run claimed
        // then could not save its samples: queued runs wait until there is room).
        if (!enabled || !recovered.get() || disk.problem().isPresent()) {
            return;
        }
        while (!stopping.get() && active.get() < maxConcurrent) {
            Optional<Long> next = claims.claimNext();
            if (next.isEmpty()) {
                return;
            }
            long id = next.get();
            active.incrementAndGet();
            pool.execute(() -> {
                try {
                    execution.execute(id, workerId, () -> stopping.get() || held.lost(id));
                } catch (Throwable e) {
                    // Whatever went wrong, this thread goes on to take the next run.
                    log.error("run {} could not be finished", id, e);
                } finally {
                    held.release(id);
                    active.decrementAndGet();
                }
            });
        }
    }

    /** Nudges the worker without waiting for the next scheduled poll. */
    @Override
    public void wake() {
        Thread thread = new Thread(this::poll, "run-worker-wake");
        thread.setDaemon(true);
        thread.start();
    }

    @PreDestroy
    void stop() throws InterruptedException {
        stopping.set(true);
        pool.shutdown();
        // Running loops see the stop between iterations, delete their Space and end INTERRUPTED.
        if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
            log.warn("runs still going after 30 s; their Spaces are deleted with the app");
        }
    }
}
