package dev.spacebench.fleet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * In every app, worker or server: at each poll, marks RUNNING runs whose lease ran out INTERRUPTED
 * (see {@link Leases#expire}), so a lost worker's run ends within its lease plus one poll interval.
 */
@Component
public class LeaseReaper {

    private static final Logger log = LoggerFactory.getLogger(LeaseReaper.class);

    private final Leases leases;
    private final String by;
    private final RunWorker worker;

    public LeaseReaper(Leases leases, WorkerIdentity identity, RunWorker worker) {
        this.leases = leases;
        this.by = identity.enabled() ? "worker '" + identity.workerId() + "'" : "the server";
        this.worker = worker;
    }

    /**
     * Nothing before start-up recovery has run ({@link RunWorker#recovered()}; the scheduler starts
     * before the app is ready): a run this app's last process left RUNNING, whose lease lapsed while
     * that process could not renew it (its database's disk full, say), ends with recovery's reason,
     * which knows why, not as a lost heartbeat.
     */
    @Scheduled(fixedDelayString = "${spacebench.worker.poll-interval-ms:500}")
    public void reap() {
        if (!worker.recovered()) {
            return;
        }
        try {
            leases.expire(by);
        } catch (RuntimeException e) {
            log.warn("could not check leases: {}", e.toString());
        }
    }
}
