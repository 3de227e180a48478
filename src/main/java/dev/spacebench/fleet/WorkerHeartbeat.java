package dev.spacebench.fleet;

import dev.spacebench.space.KindStatus;
import dev.spacebench.space.Spaces;
import jakarta.annotation.PreDestroy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * While this app's worker is enabled: registers it (testbed, host facts, the kinds its checks made)
 * and heartbeats every {@code spacebench.worker.heartbeat}, renewing the leases of the runs it
 * holds. A run whose lease it finds gone was marked INTERRUPTED meanwhile: the worker stops it.
 * On its own thread, so a long run or a busy pool never delays a heartbeat.
 */
@Component
public class WorkerHeartbeat {

    private static final Logger log = LoggerFactory.getLogger(WorkerHeartbeat.class);

    private final WorkerIdentity identity;
    private final Workers workers;
    private final Leases leases;
    private final HeldRuns held;
    private final Spaces spaces;
    private final FleetDatabase db;
    private final HostFacts facts = HostFacts.read();
    private final Instant startedAt = Instant.now();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "worker-heartbeat");
        t.setDaemon(true);
        return t;
    });

    public WorkerHeartbeat(WorkerIdentity identity, Workers workers, Leases leases, HeldRuns held, Spaces spaces, FleetDatabase db) {
        this.identity = identity;
        this.workers = workers;
        this.leases = leases;
        this.held = held;
        this.spaces = spaces;
        this.db = db;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void start() {
        if (!identity.enabled()) {
            return;
        }
        log.info("worker '{}' on testbed '{}': lease {} ms, heartbeat every {} ms", identity.workerId(), identity.testbed(),
                identity.lease().toMillis(), identity.heartbeat().toMillis());
        timer.scheduleWithFixedDelay(this::beatQuietly, 0, identity.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One heartbeat: the registration refreshed, the held runs' leases renewed, lost ones flagged. */
    void beat() {
        // The leases first: on a starved machine every statement counts towards the lease.
        Set<Long> lost = leases.renew(identity.workerId(), held.held(), db.now().plus(identity.lease()));
        for (long id : lost) {
            log.warn("run {}: this worker's lease on it was lost (another app marked it INTERRUPTED); it stops and is not resumed", id);
            held.markLost(id);
        }
        List<String> kinds = spaces.kinds().values().stream().filter(s -> s != null && s.passed()).map(KindStatus::kind).toList();
        List<String> checking = spaces.kinds().entrySet().stream().filter(e -> e.getValue() == null || e.getValue().checking())
                .map(Map.Entry::getKey).toList();
        workers.beat(identity, facts, kinds, checking, startedAt);
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            // The database may be away for a moment; the next beat tries again (a lease outlives a few).
            log.warn("heartbeat failed: {}", e.toString());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
