package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.spacebench.db.TestPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** What the app's connections to a real PostgreSQL are set to, asked of the server itself. */
class PostgresBatchingTest {

    @Test
    void aConnectionBatchesInsertsAndEndsAFrozenTransactionAfterTwiceTheLease() throws Exception {
        TestPostgres db = TestPostgres.create().orElse(null);
        assumeTrue(db != null, TestPostgres.MISSING);
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of("spacebench.worker.lease", "7s")));
        PostgresBatching batching = new PostgresBatching();
        batching.setEnvironment(environment);
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(db.url());
            pool.setUsername(db.user());
            pool.setPassword(db.password());
            batching.postProcessAfterInitialization(pool, "dataSource");
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 ResultSet timeout = s.executeQuery("SHOW idle_in_transaction_session_timeout")) {
                assertThat(timeout.next()).isTrue();
                assertThat(timeout.getString(1)).isEqualTo("14s");
            }
            assertThat(pool.getDataSourceProperties()).containsEntry("reWriteBatchedInserts", "true");
        }
    }
}
