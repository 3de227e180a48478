package dev.spacebench.fleet;

import java.time.Instant;
import java.util.List;

/**
 * One registered worker as {@code GET /api/workers} and the dashboard show it.
 *
 * @param id the worker id written into the runs it claims
 * @param testbed the machine it measures on
 * @param facts the testbed's host facts (null when unreadable)
 * @param kinds the kinds of Space its checks made, in check order
 * @param checking the kinds whose check had not ended at its last heartbeat
 * @param startedAt when this worker (its current process) registered
 * @param lastHeartbeat its last heartbeat, by the database's clock
 * @param leaseMs how long its runs' leases last without a heartbeat, in ms
 * @param live true while its last heartbeat is younger than its lease
 * @param currentRun the run it is measuring, or null
 */
public record WorkerView(String id, String testbed, HostFacts facts, List<String> kinds, List<String> checking, Instant startedAt,
                         Instant lastHeartbeat, long leaseMs, boolean live, Long currentRun) {

    /** The last heartbeat as the pages write times, e.g. "2026-12-03 12:31 UTC". */
    public String lastHeartbeatText() {
        return dev.spacebench.publish.Format.dateTime(lastHeartbeat);
    }
}
