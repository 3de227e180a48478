package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.db.TestPostgres;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Start-up recovery on a shared database (a real PostgreSQL): an app that starts again marks
 * INTERRUPTED only the runs under its worker id whose lease has lapsed. A run under the same id
 * whose lease is still live belongs to another app that is running (two apps on one host share the
 * host name as worker id) and is left alone; were it marked, that app's run would be ended under it.
 *
 * <p>The database is made and the two RUNNING runs written before the app's context starts, so
 * what is tested is the app's own start: its recovery runs once it is ready, before the test looks.
 */
@org.junit.jupiter.api.extension.ExtendWith(TestPostgres.Required.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LiveLeaseRecoveryTest {

    private static final String WORKER = "recovery-test-host";
    private static final TestPostgres DB = TestPostgres.create().orElse(null);
    private static long live;
    private static long lapsed;

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) throws Exception {
        if (DB != null) {
            // The app's own migrations, then what a dead app and a live one left: one RUNNING run each, same worker id.
            Flyway.configure().dataSource(DB.url(), DB.user(), DB.password()).locations("classpath:db/migration").load().migrate();
            try (Connection c = DB.connect()) {
                Instant now = now(c);
                live = running(c, now.plus(Duration.ofMinutes(10)));
                lapsed = running(c, now.minus(Duration.ofMinutes(10)));
            }
            registry.add("spring.datasource.url", DB::url);
            registry.add("spring.datasource.username", DB::user);
            registry.add("spring.datasource.password", DB::password);
        }
        registry.add("spacebench.worker.id", () -> WORKER);
        registry.add("spacebench.spaces.root", Files.createTempDirectory("spacebench-test-spaces-")::toString);
        // No Space is needed: no kind is checked at start.
        registry.add("spacebench.space.check-on-demand", () -> "process,sandbox,container,vm");
    }

    @Test
    void aRestartedAppLeavesARunWhoseLeaseIsLiveAndEndsOnlyTheLapsedOne() throws Exception {
        try (Connection c = DB.connect()) {
            assertThat(status(c, lapsed)).as("the lapsed run, ended by the start").startsWith("INTERRUPTED");
            assertThat(status(c, live)).as("the run another live app holds").isEqualTo("RUNNING: null");
            // Still so a while later: the lease check that runs at every poll leaves it too while its lease lasts.
            Thread.sleep(1500);
            assertThat(status(c, live)).isEqualTo("RUNNING: null");
        }
    }

    /** The database's clock (leases are compared with it, not with this JVM's). */
    private static Instant now(Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT CURRENT_TIMESTAMP")) {
            r.next();
            return r.getObject(1, OffsetDateTime.class).toInstant();
        }
    }

    /** A RUNNING run under {@link #WORKER} with its lease until {@code leaseUntil}, as a worker that claimed it leaves it. */
    private static long running(Connection c, Instant leaseUntil) throws Exception {
        long id;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT nextval('run_seq')")) {
            r.next();
            id = r.getLong(1);
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO run (id, status, kind, space_spec, plan, created_at, started_at, "
                + "cancel_requested, worker, testbed, progress_done, progress_total, lease_until) "
                + "VALUES (?, 'RUNNING', 'process', ?, ?, ?, ?, FALSE, ?, ?, 0, 5, ?)")) {
            OffsetDateTime started = OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(20);
            insert.setLong(1, id);
            insert.setString(2, "{\"kind\":\"process\"}");
            insert.setString(3, "{\"exec\":{\"metrics\":[\"noop\"],\"n\":5,\"warmups\":0,\"agentWarmupCalls\":0},"
                    + "\"files\":{\"sizes\":[],\"warmups\":0,\"bulkThresholdBytes\":2097152,\"chunkBytes\":1048576},"
                    + "\"floor\":{\"enabled\":false,\"n\":7,\"warmups\":0},\"spaces\":1,\"concurrency\":null}");
            insert.setObject(4, started);
            insert.setObject(5, started);
            insert.setString(6, WORKER);
            insert.setString(7, WORKER);
            insert.setObject(8, leaseUntil.atOffset(ZoneOffset.UTC));
            insert.executeUpdate();
        }
        return id;
    }

    private static String status(Connection c, long id) throws Exception {
        try (PreparedStatement s = c.prepareStatement("SELECT status, failure_reason FROM run WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getString(1) + ": " + r.getString(2);
            }
        }
    }
}
