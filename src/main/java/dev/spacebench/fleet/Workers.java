package dev.spacebench.fleet;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** The registered workers (table fleet_worker): registration, heartbeats, and who is live. */
@Component
public class Workers {

    private final FleetDatabase db;
    private final JsonMapper json;

    public Workers(FleetDatabase db, JsonMapper json) {
        this.db = db;
        this.json = json;
    }

    /**
     * Registers or refreshes a worker; its heartbeat is the database's now.
     *
     * @param kinds the kinds its checks made
     * @param checking the kinds whose check has not ended yet
     */
    void beat(WorkerIdentity identity, HostFacts facts, List<String> kinds, List<String> checking, Instant startedAt) {
        String factsJson = json.writeValueAsString(facts);
        String kindList = String.join(",", kinds);
        String checkingList = String.join(",", checking);
        Object[] update = {identity.testbed(), factsJson, kindList, checkingList, FleetDatabase.utc(startedAt), identity.lease().toMillis(),
                identity.workerId()};
        String sql = "UPDATE fleet_worker SET testbed = ?, facts = ?, kinds = ?, checking = ?, started_at = ?, heartbeat_at = CURRENT_TIMESTAMP, "
                + "lease_ms = ? WHERE id = ?";
        if (db.jdbc().update(sql, update) == 0) {
            try {
                db.jdbc().update("INSERT INTO fleet_worker (id, testbed, facts, kinds, checking, started_at, heartbeat_at, lease_ms) "
                                + "VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?)",
                        identity.workerId(), identity.testbed(), factsJson, kindList, checkingList, FleetDatabase.utc(startedAt),
                        identity.lease().toMillis());
            } catch (DuplicateKeyException raced) {
                db.jdbc().update(sql, update);
            }
        }
    }

    /** Every registered worker, live ones first, then by testbed and id. */
    public List<WorkerView> list() {
        Instant now = db.now();
        List<WorkerView> all = db.jdbc().query("SELECT w.id, w.testbed, w.facts, w.kinds, w.checking, w.started_at, w.heartbeat_at, w.lease_ms, "
                        + "(SELECT min(r.id) FROM run r WHERE r.status = 'RUNNING' AND r.worker = w.id) AS current_run "
                        + "FROM fleet_worker w ORDER BY w.testbed, w.id",
                (r, i) -> {
                    Instant beat = r.getObject("heartbeat_at", OffsetDateTime.class).toInstant();
                    long leaseMs = r.getLong("lease_ms");
                    Object current = r.getObject("current_run");
                    return new WorkerView(r.getString("id"), r.getString("testbed"), facts(r.getString("facts")), kinds(r.getString("kinds")),
                            kinds(r.getString("checking")),
                            r.getObject("started_at", OffsetDateTime.class).toInstant(), beat, leaseMs,
                            beat.plusMillis(leaseMs).isAfter(now), current == null ? null : ((Number) current).longValue());
                });
        return all.stream().sorted((a, b) -> Boolean.compare(b.live(), a.live())).toList();
    }

    /** The kinds each testbed with a live worker can make, by testbed name in name order. */
    public Map<String, Set<String>> liveTestbeds() {
        Map<String, Set<String>> kinds = new LinkedHashMap<>();
        list().stream().filter(WorkerView::live).sorted((a, b) -> a.testbed().compareTo(b.testbed()))
                .forEach(w -> kinds.computeIfAbsent(w.testbed(), t -> new LinkedHashSet<>()).addAll(w.kinds()));
        return kinds;
    }

    /** The kinds each testbed with a live worker is still checking (and no worker of it made yet), by testbed name. */
    public Map<String, Set<String>> liveChecking() {
        Map<String, Set<String>> checking = new LinkedHashMap<>();
        List<WorkerView> live = list().stream().filter(WorkerView::live).toList();
        live.forEach(w -> checking.computeIfAbsent(w.testbed(), t -> new LinkedHashSet<>()).addAll(w.checking()));
        live.forEach(w -> checking.get(w.testbed()).removeAll(w.kinds()));
        return checking;
    }

    private HostFacts facts(String text) {
        try {
            return json.readValue(text, HostFacts.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<String> kinds(String text) {
        return text == null || text.isBlank() ? List.of() : Arrays.asList(text.split(","));
    }
}
