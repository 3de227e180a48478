package dev.spacebench.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A fresh database on a real PostgreSQL server for one test class. The server and a role that may
 * create databases come from the environment ({@code SPACEBENCH_TEST_PG_URL} naming a database to
 * connect to for the CREATE, {@code SPACEBENCH_TEST_PG_USER}, {@code SPACEBENCH_TEST_PG_PASSWORD});
 * {@code .ci/run} starts Debian's cluster and sets them. Without them, {@link #create()} is empty
 * and the caller skips, saying why ({@link #MISSING}).
 */
public final class TestPostgres {

    public static final String MISSING = "no PostgreSQL for tests: set SPACEBENCH_TEST_PG_URL, SPACEBENCH_TEST_PG_USER "
            + "and SPACEBENCH_TEST_PG_PASSWORD (.ci/run starts Debian's postgresql and sets them)";

    /** Skips the annotated class or method, saying {@link #MISSING}, when no server is configured. */
    public static final class Required implements org.junit.jupiter.api.extension.ExecutionCondition {
        @Override
        public org.junit.jupiter.api.extension.ConditionEvaluationResult evaluateExecutionCondition(
                org.junit.jupiter.api.extension.ExtensionContext context) {
            return configured() ? org.junit.jupiter.api.extension.ConditionEvaluationResult.enabled("SPACEBENCH_TEST_PG_URL is set")
                    : org.junit.jupiter.api.extension.ConditionEvaluationResult.disabled(MISSING);
        }
    }

    /** Whether a server is configured through {@code SPACEBENCH_TEST_PG_URL} (whether it answers is for {@link #create()}). */
    public static boolean configured() {
        String admin = System.getenv("SPACEBENCH_TEST_PG_URL");
        return admin != null && !admin.isBlank();
    }

    private final String url;
    private final String user;
    private final String password;

    private TestPostgres(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** A new, empty database named spacebench_test_…, or empty when no server is configured or reachable. */
    public static Optional<TestPostgres> create() {
        String admin = System.getenv("SPACEBENCH_TEST_PG_URL");
        String user = System.getenv().getOrDefault("SPACEBENCH_TEST_PG_USER", "spacebench");
        String password = System.getenv().getOrDefault("SPACEBENCH_TEST_PG_PASSWORD", "");
        if (admin == null || admin.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(create(admin, user, password));
    }

    /**
     * A new, empty database on the server {@code admin} names (a JDBC URL of a database to connect
     * to for the CREATE), through a role that may create databases.
     *
     * @throws IllegalStateException when the server refuses
     */
    public static TestPostgres create(String admin, String user, String password) {
        String name = "spacebench_test_" + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36)
                .toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(admin, user, password); Statement s = c.createStatement()) {
            dropIdleLeftovers(c);
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("SPACEBENCH_TEST_PG_URL is set but the server refused a new database: " + e.getMessage(), e);
        }
        int slash = admin.lastIndexOf('/');
        int query = admin.indexOf('?', slash);
        String url = admin.substring(0, slash + 1) + name + (query < 0 ? "" : admin.substring(query));
        return new TestPostgres(url, user, password);
    }

    /**
     * Test databases of earlier runs (a test JVM keeps its database until it exits, so none can
     * drop its own): dropped here when nobody is connected to them any more.
     */
    private static void dropIdleLeftovers(Connection c) throws SQLException {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (Statement s = c.createStatement(); java.sql.ResultSet r = s.executeQuery(
                "SELECT datname FROM pg_database d WHERE datname LIKE 'spacebench\\_test\\_%' "
                        + "AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        for (String name : names) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
            } catch (SQLException inUse) {
                // someone connected meanwhile: another test JVM's; leave it
            }
        }
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
