package dev.spacebench.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every H2 URL gets H2's write delay off and, where H2 allows it, its exit hook off; other URLs are untouched. */
class H2DurabilityTest {

    @Test
    void plainFileUrlGetsBothSettings() {
        assertThat(H2Durability.durable("jdbc:h2:file:./data/sb")).isEqualTo("jdbc:h2:file:./data/sb;WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(H2Durability.durable("jdbc:h2:mem:x;MODE=PostgreSQL")).isEqualTo("jdbc:h2:mem:x;MODE=PostgreSQL;WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void autoServerKeepsTheExitHookBecauseH2RefusesBoth() {
        assertThat(H2Durability.durable("jdbc:h2:file:./data/sb;AUTO_SERVER=TRUE")).isEqualTo("jdbc:h2:file:./data/sb;AUTO_SERVER=TRUE;WRITE_DELAY=0");
        assertThat(H2Durability.durable("jdbc:h2:tcp://localhost/~/sb")).isEqualTo("jdbc:h2:tcp://localhost/~/sb;WRITE_DELAY=0");
    }

    @Test
    void settingsTheUserGaveAndOtherDatabasesAreLeftAlone() {
        assertThat(H2Durability.durable("jdbc:h2:file:/d/sb;write_delay=100;DB_CLOSE_ON_EXIT=TRUE")).isEqualTo("jdbc:h2:file:/d/sb;write_delay=100;DB_CLOSE_ON_EXIT=TRUE");
        assertThat(H2Durability.durable("jdbc:postgresql://db:5432/sb")).isEqualTo("jdbc:postgresql://db:5432/sb");
    }

    @Test
    void h2TakesTheUrlAndRunsWithNoWriteDelay(@TempDir Path temp) throws Exception {
        try (Connection c = DriverManager.getConnection(H2Durability.durable("jdbc:h2:file:" + temp.resolve("db")), "sa", "");
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("0");
        }
    }
}
