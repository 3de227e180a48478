package dev.spacebench.fleet;

import dev.spacebench.publish.Format;
import dev.spacebench.run.InterruptedRunFigures;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Leases on RUNNING runs, by the database's clock: a worker's heartbeat renews those it holds; any
 * app (a worker or the server) marks a run whose lease ran out INTERRUPTED, with the figures of the
 * samples it saved ({@link InterruptedRunFigures}). Samples already saved stay; the worker that lost
 * the run finds out at its next heartbeat and does not resume it.
 */
@Component
public class Leases {

    private static final Logger log = LoggerFactory.getLogger(Leases.class);

    static final String LOST_LEASE = "stopped renewing its lease (no heartbeat)";

    private final FleetDatabase db;
    private final InterruptedRunFigures figures;
    private final TransactionTemplate transactions;

    public Leases(FleetDatabase db, InterruptedRunFigures figures, TransactionTemplate transactions) {
        this.db = db;
        this.figures = figures;
        this.transactions = transactions;
    }

    /**
     * Extends the leases of the runs this worker holds.
     *
     * @return the runs among {@code runIds} that another app marked INTERRUPTED because their lease ran out
     */
    Set<Long> renew(String workerId, Set<Long> runIds, Instant until) {
        Set<Long> lost = new HashSet<>();
        for (long id : runIds) {
            int renewed = db.jdbc().update("UPDATE run SET lease_until = ? WHERE id = ? AND worker = ? AND status = 'RUNNING'",
                    FleetDatabase.utc(until), id, workerId);
            // 0 rows also when this worker has just recorded the run's own end: only an expired lease is a loss.
            if (renewed == 0 && db.jdbc().queryForObject("SELECT count(*) FROM run WHERE id = ? AND status = 'INTERRUPTED' "
                    + "AND failure_reason LIKE ?", Long.class, id, "%" + LOST_LEASE + "%") > 0) {
                lost.add(id);
            }
        }
        return lost;
    }

    /**
     * Marks every RUNNING run whose lease has run out INTERRUPTED, saying whose lease it was, and
     * computes its figures from the samples it stored.
     *
     * @param by who noticed, for the reason (a worker id, or "the server")
     * @return how many runs it marked
     */
    public int expire(String by) {
        List<Map<String, Object>> expired = db.jdbc().queryForList(
                "SELECT id, worker, testbed, lease_until FROM run WHERE status = 'RUNNING' AND lease_until < CURRENT_TIMESTAMP");
        int marked = 0;
        for (Map<String, Object> run : expired) {
            long id = ((Number) run.get("id")).longValue();
            String reason = "its worker '" + run.get("worker") + "' on testbed '" + run.get("testbed")
                    + "' " + LOST_LEASE + "; the lease ran out at " + leaseEnd(run.get("lease_until"))
                    + " and " + by + " marked the run INTERRUPTED; the samples saved until then are kept";
            Long kept;
            try {
                // One transaction: no run ends INTERRUPTED without its figures unless they cannot be computed.
                kept = transactions.execute(tx -> interrupt(id, reason) ? figures.compute(id) : null);
            } catch (RuntimeException e) {
                log.warn("run {}: could not compute its figures from its stored samples: {}; INTERRUPTED without them", id, e.toString());
                kept = transactions.execute(tx -> interrupt(id, reason) ? -1L : null);
            }
            if (kept != null) {
                marked++;
                log.warn("run {} INTERRUPTED: {}{}", id, reason, kept < 0 ? "" : "; its figures computed from the " + kept
                        + " samples it stored");
            }
        }
        return marked;
    }

    /** @return whether this app marked it (another may have been first, or its worker renewed it) */
    private boolean interrupt(long id, String reason) {
        return db.jdbc().update("UPDATE run SET status = 'INTERRUPTED', finished_at = ?, failure_reason = ?, lease_until = NULL "
                        + "WHERE id = ? AND status = 'RUNNING' AND lease_until < CURRENT_TIMESTAMP",
                FleetDatabase.utc(Instant.now()), reason, id) == 1;
    }

    /** The lease's end as the pages write times, e.g. "2026-12-03 12:31 UTC" (the reason is shown as is). */
    private static Object leaseEnd(Object value) {
        if (value instanceof OffsetDateTime at) {
            return Format.dateTime(at.toInstant());
        }
        if (value instanceof java.sql.Timestamp at) {
            return Format.dateTime(at.toInstant());
        }
        return value;
    }
}
