package dev.spacebench.fleet;

import dev.spacebench.space.KindStatus;
import dev.spacebench.space.Spaces;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Takes the oldest QUEUED run this worker can make (its kind not failed here, its testbed none or
 * this one) and makes it RUNNING under this worker with a lease. On PostgreSQL the candidate row is
 * locked with {@code FOR UPDATE SKIP LOCKED}, so workers never wait on each other nor take the same
 * run; on H2 (one machine) a conditional update on QUEUED does the same job.
 */
@Component
public class RunClaims {

    private static final Logger log = LoggerFactory.getLogger(RunClaims.class);
    private static final int H2_ATTEMPTS = 10;

    private final FleetDatabase db;
    private final Spaces spaces;
    private final WorkerIdentity identity;
    private final HeldRuns held;
    private final TransactionTemplate transactions;

    public RunClaims(FleetDatabase db, Spaces spaces, WorkerIdentity identity, HeldRuns held, TransactionTemplate transactions) {
        this.db = db;
        this.spaces = spaces;
        this.identity = identity;
        this.held = held;
        this.transactions = transactions;
    }

    /** @return the id of the run this worker now holds, or empty when there is none it can take */
    public Optional<Long> claimNext() {
        // A kind still being checked is taken too: the worker waits for its check before making the Space.
        List<String> kinds = spaces.kinds().values().stream().filter(s -> s != null && !s.failed()).map(KindStatus::kind).toList();
        if (kinds.isEmpty()) {
            return Optional.empty();
        }
        long start = System.nanoTime();
        Optional<Long> claimed = db.postgres() ? claimLocked(kinds) : claimConditionally(kinds);
        claimed.ifPresent(id -> {
            held.hold(id);
            log.info("claimed run {} on testbed '{}' in {} ms", id, identity.testbed(),
                    String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e6));
        });
        return claimed;
    }

    /** By the database's clock, read only once there is a run to take: an idle poll costs one SELECT. */
    private Instant leaseUntil() {
        return db.now().plus(identity.lease());
    }

    private Optional<Long> claimLocked(List<String> kinds) {
        return transactions.execute(tx -> {
            List<Long> ids = db.jdbc().queryForList(candidate(kinds) + " FOR UPDATE SKIP LOCKED", Long.class, candidateArgs(kinds));
            if (ids.isEmpty()) {
                return Optional.<Long>empty();
            }
            db.jdbc().update("UPDATE run SET status = 'RUNNING', worker = ?, testbed = ?, started_at = ?, lease_until = ? WHERE id = ?",
                    identity.workerId(), identity.testbed(), FleetDatabase.utc(Instant.now()), FleetDatabase.utc(leaseUntil()), ids.get(0));
            return Optional.of(ids.get(0));
        });
    }

    private Optional<Long> claimConditionally(List<String> kinds) {
        for (int attempt = 0; attempt < H2_ATTEMPTS; attempt++) {
            List<Long> ids = db.jdbc().queryForList(candidate(kinds), Long.class, candidateArgs(kinds));
            if (ids.isEmpty()) {
                return Optional.empty();
            }
            int taken = db.jdbc().update("UPDATE run SET status = 'RUNNING', worker = ?, testbed = ?, started_at = ?, lease_until = ? "
                            + "WHERE id = ? AND status = 'QUEUED'",
                    identity.workerId(), identity.testbed(), FleetDatabase.utc(Instant.now()), FleetDatabase.utc(leaseUntil()), ids.get(0));
            if (taken == 1) {
                return Optional.of(ids.get(0));
            }
            // another worker was first: try the next candidate
        }
        return Optional.empty();
    }

    private static String candidate(List<String> kinds) {
        return "SELECT id FROM run WHERE status = 'QUEUED' AND kind IN (" + String.join(", ", Collections.nCopies(kinds.size(), "?"))
                + ") AND (testbed IS NULL OR testbed = ?) ORDER BY created_at, id LIMIT 1";
    }

    private Object[] candidateArgs(List<String> kinds) {
        List<Object> args = new ArrayList<>(kinds);
        args.add(identity.testbed());
        return args.toArray();
    }
}
