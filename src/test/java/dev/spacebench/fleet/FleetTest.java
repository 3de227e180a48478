package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.ChildApp;
import dev.spacebench.db.TestPostgres;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * A fleet on a real PostgreSQL: the server (its own worker off) and three worker JVMs, each its own
 * testbed, all on one database. Runs are checked in the database itself and in the workers' logs,
 * not through the code that claims them.
 * <p>
 * Where the machine allows ({@link WorkerNetwork#missing()}: root, ip, nft), each worker runs in its
 * own network namespace as a separate host would, reaching only the test's own PostgreSQL server
 * over a veth pair, and not the app's web port. Elsewhere the workers share this host's loopback
 * and the database {@code SPACEBENCH_TEST_PG_URL} names (the output says which, and why).
 *
 * <p>Short leases (6 s, heartbeat 1 s) so that a lost worker shows within seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.api.extension.ExtendWith(FleetTest.NeedsPostgres.class)
class FleetTest {

    /**
     * The fleet needs a PostgreSQL: its own server in network namespaces (root, ip, nft, Debian's
     * postgresql), else the configured one. Checked before the class starts, so that without either
     * its tests count as skipped.
     */
    static final class NeedsPostgres implements org.junit.jupiter.api.extension.ExecutionCondition {
        @Override
        public org.junit.jupiter.api.extension.ConditionEvaluationResult evaluateExecutionCondition(
                org.junit.jupiter.api.extension.ExtensionContext context) {
            String noNamespaces = WorkerNetwork.missing();
            return noNamespaces == null || TestPostgres.configured()
                    ? org.junit.jupiter.api.extension.ConditionEvaluationResult.enabled("a PostgreSQL can be had")
                    : org.junit.jupiter.api.extension.ConditionEvaluationResult.disabled("the fleet's own PostgreSQL in network "
                            + "namespaces cannot start (" + noNamespaces + "; Debian's iproute2, nftables and postgresql bring "
                            + "them), and " + TestPostgres.MISSING);
        }
    }

    private TestPostgres db;
    private WorkerNetwork network;
    // Short, yet five missed heartbeats long: on a loaded 2-core machine a JVM can stall for seconds.
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Duration POLL = Duration.ofMillis(200);
    // The server and the workers are other processes on a busy machine: scheduling delays on top.
    private static final Duration SLACK = Duration.ofSeconds(3);
    private static final int RUNS = 12;
    private static final Pattern FINISHED = Pattern.compile("run (\\d+) (SUCCEEDED|FAILED|CANCELLED|INTERRUPTED)");
    // Four JVMs at once on a small machine (C1 only, as ChildApp starts every app JVM): a bounded heap each.
    private static final List<String> JVM = List.of("-Xmx384m");

    private Path dir;
    private ChildApp server;
    private final List<WorkerJvm> workers = new ArrayList<>();
    private final List<Long> longRuns = new ArrayList<>();

    @BeforeAll
    void startTheFleet() throws Exception {
        String noNamespaces = WorkerNetwork.missing();
        if (noNamespaces == null) {
            try {
                network = WorkerNetwork.create(3);
            } catch (java.io.IOException e) {
                noNamespaces = e.getMessage();
            }
        }
        if (network != null) {
            db = TestPostgres.create(network.adminUrl(), WorkerNetwork.USER, WorkerNetwork.PASSWORD);
            System.out.printf("fleet: each worker in its own network namespace, reaching only PostgreSQL (the test's own server, port %d) "
                    + "at %s, %s, %s%n", network.port(), network.hostAddress(0), network.hostAddress(1), network.hostAddress(2));
        } else {
            db = TestPostgres.create().orElse(null);
            assumeTrue(db != null, TestPostgres.MISSING);
            System.out.println("fleet: the workers share this host's loopback, not network namespaces: " + noNamespaces);
        }
        dir = Files.createTempDirectory("spacebench-fleet-");
        List<String> common = List.of("--spring.datasource.username=" + db.user(),
                "--spring.datasource.password=" + db.password(), "--spacebench.worker.lease=" + LEASE.toMillis() + "ms",
                "--spacebench.worker.heartbeat=1s",
                // Only the kinds this test uses are checked for real: no container or VM started four times over,
                // and sandbox (an agent JVM in bwrap per app) only if a run asked for it.
                "--spacebench.space.container.cli=/nonexistent/podman", "--spacebench.space.vm.qemu=/nonexistent/qemu",
                "--spacebench.space.check-on-demand=sandbox");
        // The server first: its Flyway migrates the database before any worker opens it.
        List<String> serverArgs = new ArrayList<>(common);
        serverArgs.addAll(List.of("--spring.datasource.url=" + db.url(), "--spacebench.worker.enabled=false",
                "--spacebench.spaces.root=" + Files.createDirectories(dir.resolve("server-spaces")),
                "--spacebench.space.checks-root=" + dir.resolve("server-checks")));
        // ChildApp polls every 200 ms (POLL) itself; a second value of the property would be a list.
        server = ChildApp.startWith(JVM, serverArgs, dir.resolve("server.log"));
        for (int i = 0; i < 3; i++) {
            List<String> workerArgs = new ArrayList<>(common);
            workerArgs.add("--spacebench.worker.poll-interval-ms=" + POLL.toMillis());
            workerArgs.add("--spring.datasource.url=" + (network == null ? db.url() : network.urlFor(i, db.url())));
            workers.add(WorkerJvm.start("tb-" + i, dir.resolve("tb-" + i), JVM, workerArgs, network == null ? List.of() : network.wrapper(i)));
        }
        server.await("/api/workers", list -> live(list).size() == 3
                && StreamSupport.stream(list.spliterator(), false).allMatch(w -> kinds(w).contains("process")), Duration.ofMinutes(8));
    }

    @AfterAll
    void stopTheFleet() throws Exception {
        for (WorkerJvm worker : workers) {
            worker.signal("CONT");
            worker.close();
        }
        if (server != null) {
            // SIGTERM: it removes the server.json it wrote in the default data directory (a PostgreSQL URL has no H2 directory).
            server.stop();
            server.close();
        }
        // A killed worker's agent outlives it (its next start would remove it): end it here.
        if (dir != null) {
            ProcessHandle.allProcesses().filter(p -> ChildApp.commandLine(p).contains(dir.toString()))
                    .forEach(ProcessHandle::destroyForcibly);
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    @Order(0)
    void eachWorkerReachesThePostgresPortOnItsOwnLinkAndNothingElse() throws Exception {
        assumeTrue(network != null, "the workers share this host's loopback (see the fleet: line above)");
        // Listening on every address of this host: only the workers' firewall keeps them from it.
        try (java.net.ServerSocket open = new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName("0.0.0.0"))) {
            java.util.concurrent.ExecutorService checks = java.util.concurrent.Executors.newFixedThreadPool(15);
            try {
                Map<String, java.util.concurrent.Future<Boolean>> reached = new TreeMap<>();
                for (int i = 0; i < 3; i++) {
                    int w = i;
                    String own = network.hostAddress(w);
                    String other = network.hostAddress((w + 1) % 3);
                    reached.put("tb-" + w + " → PostgreSQL on its link", checks.submit(() -> network.reaches(w, own, network.port())));
                    reached.put("tb-" + w + " → PostgreSQL on another link", checks.submit(() -> network.reaches(w, other, network.port())));
                    reached.put("tb-" + w + " → the app's web port", checks.submit(() -> network.reaches(w, own, server.port())));
                    reached.put("tb-" + w + " → its loopback at the web port", checks.submit(() -> network.reaches(w, "127.0.0.1", server.port())));
                    reached.put("tb-" + w + " → a port open on all of this host's addresses",
                            checks.submit(() -> network.reaches(w, own, open.getLocalPort())));
                }
                Map<String, Boolean> result = new TreeMap<>();
                for (Map.Entry<String, java.util.concurrent.Future<Boolean>> e : reached.entrySet()) {
                    result.put(e.getKey(), e.getValue().get());
                }
                System.out.println("fleet: reachable from the namespaces: " + result);
                result.forEach((what, ok) -> assertThat(ok).as(what).isEqualTo(what.endsWith("PostgreSQL on its link")));
            } finally {
                checks.shutdownNow();
            }
        }
    }

    @Test
    @Order(1)
    void aRunNamingAnUnknownTestbedOrAKindNoWorkerMakesIsRefusedWithWhatIsAvailable() throws Exception {
        HttpResponse<String> unknown = server.send("/api/runs", body("nowhere", 10));
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(ChildApp.json(unknown).get("errors").get(0).get("field").asString()).isEqualTo("testbed");
        assertThat(unknown.body()).contains("tb-0 makes ", "tb-1 makes ", "tb-2 makes ", "process", "'nowhere'");

        // No worker checked container (its CLI is missing), so none can make it.
        HttpResponse<String> container = server.send("/api/runs", """
                {"space": {"kind": "container"}, "plan": {"exec": {"metrics": ["noop"], "n": 5}}}""");
        assertThat(container.statusCode()).as(container.body()).isEqualTo(400);
        assertThat(ChildApp.json(container).get("errors").get(0).get("field").asString()).isEqualTo("space.kind");
        assertThat(container.body()).contains("no live worker can make 'container'", "tb-0 makes ", "process");
    }

    @Test
    @Order(2)
    void twelveRunsAreEachClaimedOnceNamedOnesOnlyOnTheirTestbedAndEverySampleIsSaved() throws Exception {
        long start = System.nanoTime();
        Map<Long, String> named = new HashMap<>();
        Map<Long, Integer> expectedSamples = new HashMap<>();
        // Twelve, queued at once: each worker meets the others at every claim, and each testbed is named twice.
        // Every run starts an agent JVM, so more runs cost the suite seconds each and test nothing more.
        for (int i = 0; i < RUNS; i++) {
            String testbed = i % 2 == 0 ? "tb-" + (i / 2 % 3) : null;
            int n = 10 + i;
            long id = server.post("/api/runs", body(testbed, n)).get("id").asLong();
            if (testbed != null) {
                named.put(id, testbed);
            }
            // n measured and 2 warm-ups of exec.noop, one Space ready and its three parts, one Space delete
            expectedSamples.put(id, n + 2 + 1 + 3 + 1);
        }
        // Minutes only on a machine shared with other builds: each run starts an agent JVM.
        awaitFinished(expectedSamples.keySet(), Duration.ofMinutes(12));
        double wall = (System.nanoTime() - start) / 1e9;

        Map<String, Integer> claimsPerWorker = new TreeMap<>();
        List<Double> queueWaits = new ArrayList<>();
        try (Connection c = db.connect()) {
            for (long id : expectedSamples.keySet()) {
                Row row = row(c, id);
                assertThat(row.status).as("run %d: %s", id, row.reason).isEqualTo("SUCCEEDED");
                // Each worker is named after its testbed (the default worker id).
                assertThat(row.worker).as("run %d", id).isEqualTo(row.testbed);
                if (named.containsKey(id)) {
                    assertThat(row.testbed).as("run %d named a testbed", id).isEqualTo(named.get(id));
                }
                assertThat(row.samples).as("samples of run %d in the database", id).isEqualTo((long) expectedSamples.get(id));
                claimsPerWorker.merge(row.worker, 1, Integer::sum);
                queueWaits.add(Duration.between(row.created, row.started).toNanos() / 1e6);
            }
        }
        // Claimed exactly once: each run ended in exactly one worker's log, that of the worker the database names.
        Map<Long, List<String>> endedIn = endedInLogs();
        for (long id : expectedSamples.keySet()) {
            assertThat(endedIn.get(id)).as("workers whose log ended run %d", id).hasSize(1);
        }
        queueWaits.sort(null);
        System.out.printf("fleet: %d runs (%d naming a testbed) in %.1f s; claims per worker %s; queue wait (created → started) "
                        + "min %.0f ms, median %.0f ms, max %.0f ms%n", RUNS, named.size(), wall, claimsPerWorker, queueWaits.get(0),
                queueWaits.get(queueWaits.size() / 2), queueWaits.get(queueWaits.size() - 1));
        assertThat(claimsPerWorker.keySet()).containsExactly("tb-0", "tb-1", "tb-2");
    }

    @Test
    @Order(3)
    void aWorkerKilledMidRunHasItsRunInterruptedWithinItsLeaseAndTheOthersCarryOn() throws Exception {
        WorkerJvm victim = workers.get(1);
        long id = server.post("/api/runs", longBody(victim.testbed())).get("id").asLong();
        longRuns.add(id);
        long savedBefore;
        try (Connection c = db.connect()) {
            savedBefore = awaitSamples(c, id, 1000, Duration.ofMinutes(2));
        }
        Instant killedAt = Instant.now();
        victim.kill();

        Row row;
        try (Connection c = db.connect()) {
            row = awaitStatus(c, id, Duration.ofSeconds(60));
        }
        double after = Duration.between(killedAt, row.finished).toMillis() / 1000.0;
        System.out.printf("fleet: killed %s (pid %d) in run %d with %d samples saved; INTERRUPTED %.1f s later (lease %d s, poll %d ms), "
                        + "%d samples kept; reason: %s%n", victim.testbed(), victim.pid(), id, savedBefore, after, LEASE.toSeconds(),
                POLL.toMillis(), row.samples, row.reason);
        assertThat(row.status).isEqualTo("INTERRUPTED");
        assertThat(row.reason).contains("tb-1", "lease");
        assertThat(row.samples).isGreaterThanOrEqualTo(savedBefore);
        assertThat(row.finished).isAfter(killedAt);
        assertThat(row.finished).isBefore(killedAt.plus(LEASE).plus(POLL).plus(SLACK));
        // Its figures were computed from the samples it stored, when it was marked: n and p50 as the rows give them.
        try (Connection c = db.connect()) {
            assertFiguresOfStoredSamples(c, id, row.samples);
        }
        assertThat(server.response("/runs/" + id).body()).contains("This run ended INTERRUPTED (its worker &#39;tb-1&#39;",
                "its figures cover only the " + row.samples + " samples taken before the interruption (computed from the stored samples");

        // tb-1 is no longer live: a run naming it is refused, listing the two that are.
        server.await("/api/workers", list -> live(list).size() == 2, Duration.ofSeconds(30));
        HttpResponse<String> refused = server.send("/api/runs", body("tb-1", 10));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("tb-0 makes", "tb-2 makes").doesNotContain("tb-1 makes");

        List<Long> more = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            more.add(server.post("/api/runs", body(i % 3 == 0 ? "tb-2" : null, 10)).get("id").asLong());
        }
        awaitFinished(more, Duration.ofMinutes(3));
        Map<String, Integer> claims = new TreeMap<>();
        try (Connection c = db.connect()) {
            for (long other : more) {
                Row r = row(c, other);
                assertThat(r.status).as("run %d: %s", other, r.reason).isEqualTo("SUCCEEDED");
                assertThat(r.samples).isEqualTo(10 + 2 + 1 + 3 + 1);
                claims.merge(r.worker, 1, Integer::sum);
            }
        }
        System.out.println("fleet: after the kill, 3 more runs: claims per worker " + claims);
        assertThat(claims.keySet()).doesNotContain("tb-1");
    }

    @Test
    @Order(4)
    void aWorkerThatComesBackDoesNotResumeTheRunItLost() throws Exception {
        WorkerJvm frozen = workers.get(2);
        long id = server.post("/api/runs", longBody(frozen.testbed())).get("id").asLong();
        longRuns.add(id);
        try (Connection c = db.connect()) {
            awaitSamples(c, id, 1000, Duration.ofMinutes(2));
            frozen.signal("STOP");
            Row lost = awaitStatus(c, id, Duration.ofSeconds(60));
            assertThat(lost.status).isEqualTo("INTERRUPTED");
            frozen.signal("CONT");
            Instant resumed = Instant.now();
            // Its next heartbeat, or its next batch of samples, finds the run gone; it stops the run and
            // records no end of its own.
            awaitLog(frozen, "run " + id + " was no longer this worker's", Duration.ofSeconds(60));
            assertThat(frozen.log()).containsAnyOf("run " + id + ": this worker's lease on it was lost",
                    "run " + id + ": no longer this worker's (another app ended it)");
            Row after = row(c, id);
            assertThat(after.status).isEqualTo("INTERRUPTED");
            assertThat(after.reason).isEqualTo(lost.reason);
            // The samples it took after it came back (at least its Space's delete) were not added to the lost run.
            assertThat(after.samples).as("samples of run %d: when INTERRUPTED, and after tb-2 came back", id).isEqualTo(lost.samples);
            // Nor did it replace the figures computed from them when the run was marked.
            assertFiguresOfStoredSamples(c, id, lost.samples);
            System.out.printf("fleet: froze tb-2 in run %d; INTERRUPTED by %s with %d samples; after SIGCONT it stopped the run "
                            + "within %.1f s, left it INTERRUPTED and added no sample (%d)%n", id,
                    lost.reason.replaceAll(".* and (.*) marked.*", "$1"), lost.samples,
                    Duration.between(resumed, Instant.now()).toMillis() / 1000.0, after.samples);
        }
        // And it takes new runs again.
        server.await("/api/workers", list -> live(list).size() == 2, Duration.ofSeconds(30));
        long next = server.post("/api/runs", body("tb-2", 12)).get("id").asLong();
        awaitFinished(List.of(next), Duration.ofMinutes(2));
        try (Connection c = db.connect()) {
            Row r = row(c, next);
            assertThat(r.status).isEqualTo("SUCCEEDED");
            assertThat(r.worker).isEqualTo("tb-2");
        }
    }

    private static String body(String testbed, int n) {
        return (testbed == null ? "{" : "{\"testbed\": \"" + testbed + "\", ") + """
                "space": {"kind": "process"},
                 "plan": {"exec": {"metrics": ["noop"], "n": %d, "warmups": 2, "agentWarmupCalls": 10},
                          "files": {"sizes": []}, "floor": {"enabled": false}}}""".formatted(n);
    }

    /** A run long enough to be caught in the middle (it never gets to its end in this test). */
    private static String longBody(String testbed) {
        return """
                {"testbed": "%s", "space": {"kind": "process"},
                 "plan": {"exec": {"metrics": ["noop"], "n": 1000000, "warmups": 0, "agentWarmupCalls": 10},
                          "files": {"sizes": []}, "floor": {"enabled": false}}}""".formatted(testbed);
    }

    private record Row(String status, String worker, String testbed, String reason, Instant created, Instant started,
                       Instant finished, long samples) {
    }

    private static Row row(Connection c, long id) throws Exception {
        try (PreparedStatement s = c.prepareStatement("SELECT status, worker, testbed, failure_reason, created_at, started_at, finished_at, "
                + "(SELECT count(*) FROM sample WHERE run_id = run.id) FROM run WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).as("run %d exists", id).isTrue();
                return new Row(r.getString(1), r.getString(2), r.getString(3), r.getString(4), instant(r.getTimestamp(5)),
                        instant(r.getTimestamp(6)), instant(r.getTimestamp(7)), r.getLong(8));
            }
        }
    }

    /**
     * The run's stored exec.noop figures against its rows, read here: n is the measured ok samples,
     * p50 their lower median (the nearest rank: the smallest value at or above half of them).
     */
    private static void assertFiguresOfStoredSamples(Connection c, long id, long samples) throws Exception {
        List<Long> ns = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT ns FROM sample WHERE run_id = ? AND metric = 'exec.noop' "
                + "AND phase = 'measured' AND ok ORDER BY ns")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ns.add(r.getLong(1));
                }
            }
        }
        assertThat(ns).as("measured ok exec.noop samples of run %d", id).isNotEmpty();
        try (PreparedStatement s = c.prepareStatement("SELECT n, p50_ns, (SELECT sample_count FROM run WHERE id = ?), "
                + "(SELECT figures_from_stored_samples FROM run WHERE id = ?) FROM metric_result WHERE run_id = ? AND metric = 'exec.noop'")) {
            s.setLong(1, id);
            s.setLong(2, id);
            s.setLong(3, id);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).as("exec.noop figures of run %d", id).isTrue();
                assertThat(r.getInt(1)).as("n of run %d", id).isEqualTo(ns.size());
                assertThat(r.getLong(2)).as("p50 of run %d", id).isEqualTo(ns.get((ns.size() - 1) / 2));
                assertThat(r.getLong(3)).as("sample count of run %d", id).isEqualTo(samples);
                assertThat(r.getBoolean(4)).as("figures of run %d from its stored samples", id).isTrue();
            }
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private void awaitFinished(java.util.Collection<Long> ids, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = db.connect()) {
            while (true) {
                long open = 0;
                for (long id : ids) {
                    String status = row(c, id).status;
                    if (status.equals("QUEUED") || status.equals("RUNNING")) {
                        open++;
                    }
                }
                if (open == 0) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(open + " runs still open after " + timeout + "\n" + logs());
                }
                Thread.sleep(200);
            }
        }
    }

    private long awaitSamples(Connection c, long id, long atLeast, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Row row;
        do {
            row = row(c, id);
            if (row.samples >= atLeast && row.status.equals("RUNNING")) {
                return row.samples;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " never had " + atLeast + " samples saved while RUNNING: " + row + "\n" + logs());
    }

    private Row awaitStatus(Connection c, long id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Row row;
        do {
            row = row(c, id);
            if (!row.status.equals("RUNNING") && !row.status.equals("QUEUED")) {
                return row;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " still " + row.status + " after " + timeout + "\n" + logs());
    }

    private static void awaitLog(WorkerJvm worker, String line, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!worker.log().contains(line)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(worker.testbed() + "'s log never said: " + line + "\n" + worker.log());
            }
            Thread.sleep(100);
        }
    }

    /** Run id → the testbeds whose worker log recorded its end. */
    private Map<Long, List<String>> endedInLogs() {
        Map<Long, List<String>> ended = new HashMap<>();
        for (WorkerJvm worker : workers) {
            Matcher m = FINISHED.matcher(worker.log());
            while (m.find()) {
                ended.computeIfAbsent(Long.parseLong(m.group(1)), k -> new ArrayList<>()).add(worker.testbed());
            }
        }
        return ended;
    }

    private String logs() {
        StringBuilder text = new StringBuilder("server: ").append(server.tail());
        for (WorkerJvm worker : workers) {
            String log = worker.log();
            text.append("\n").append(worker.testbed()).append(": ").append(log.substring(Math.max(0, log.length() - 3000)));
        }
        return text.toString();
    }

    private static List<JsonNode> live(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false).filter(w -> w.get("live").asBoolean()).toList();
    }

    private static List<String> kinds(JsonNode worker) {
        return StreamSupport.stream(worker.get("kinds").spliterator(), false).map(JsonNode::asString).toList();
    }
}
