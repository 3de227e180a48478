package dev.spacebench.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.system.DatabaseAt;

import java.io.IOException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.util.unit.DataSize;

/**
 * Which failures {@link DatabaseDisk} takes for the database's disk being full. PostgreSQL's is
 * told by its SQLSTATE, 53100 (disk_full), whatever the server's language: the exceptions here
 * are the driver's own, built by its parser from an ErrorResponse as a server sends it (fields
 * {@code S}, {@code C}, {@code M} separated by NUL). A real server's disk is not filled for this
 * test: that needs a cluster of its own on a small disk, which the suite does not start; H2's case
 * is filled for real in {@code DataDiskFullTest}.
 */
class DiskFullErrorsTest {

    /** A server set to {@code lc_messages = 'de_DE'}: the text says nothing the English check would find. */
    private static final String GERMAN_DISK_FULL = "konnte Datei »base/16384/16397« nicht erweitern: Auf dem Gerät ist kein "
            + "Speicherplatz mehr verfügbar";

    private static PSQLException fromServer(String sqlState, String message) {
        return new PSQLException(new ServerErrorMessage("SFEHLER\0VERROR\0C" + sqlState + "\0M" + message
                + "\0HGeben Sie Speicherplatz frei.\0Fmd.c\0L498\0RmdextendFile\0"));
    }

    @Test
    void postgresqlsDiskFullIsKnownByItsSqlStateInAnyLanguage() {
        PSQLException full = fromServer("53100", GERMAN_DISK_FULL);
        assertThat(full.getSQLState()).isEqualTo("53100");
        assertThat(DatabaseDisk.isDiskFull(full)).isTrue();
        // As the app meets it: under Spring's translation of JdbcTemplate's or a transaction's failure.
        assertThat(DatabaseDisk.isDiskFull(new DataAccessResourceFailureException("could not save", full))).isTrue();
    }

    @Test
    void onPostgresqlTheAppSaysTheServersOwnWordsAndRefusesNewRuns() {
        DatabaseDisk disk = new DatabaseDisk(new PGSimpleDataSource(), new DatabaseAt("jdbc:postgresql://127.0.0.1:5432/spacebench"),
                new DatabaseSettings(DataSize.ofMegabytes(8), false));
        try {
            assertThat(disk.noteFailure(new DataAccessResourceFailureException("could not save", fromServer("53100", GERMAN_DISK_FULL))))
                    .isTrue();
            // The driver's text begins with the server's severity, in its language too.
            assertThat(disk.problem()).hasValue("the database's disk is full (the database server says: FEHLER: " + GERMAN_DISK_FULL
                    + "; SQLSTATE 53100)");
            assertThatThrownBy(disk::requireRoom).isInstanceOf(DatabaseUnavailableException.class)
                    .hasMessageStartingWith("the database's disk is full (the database server says: FEHLER: konnte Datei")
                    .hasMessageContaining("new runs are refused until there is room on it again");
        } finally {
            disk.stopFilteringTheLog();
        }
    }

    @Test
    void anotherPostgresqlErrorWithTheSameTextIsNot() {
        // io_error: the same words, another condition.
        assertThat(DatabaseDisk.isDiskFull(fromServer("58030", GERMAN_DISK_FULL))).isFalse();
        assertThat(DatabaseDisk.isDiskFull(fromServer("23505", "doppelter Schlüsselwert verletzt Unique-Constraint"))).isFalse();
    }

    @Test
    void anEnglishNoSpaceLeftInADatabaseErrorIsFullButAFullDiskElsewhereIsNot() {
        // H2's way: its SQLException's text, any SQLSTATE.
        SQLException h2 = new SQLException("IO Exception: \"java.io.IOException: No space left on device\"; \"/srv/data/sb.mv.db\"",
                "90028");
        assertThat(DatabaseDisk.isDiskFull(new DataAccessResourceFailureException("could not save", h2))).isTrue();
        // A Space's disk or the staging directory: no database among the causes.
        assertThat(DatabaseDisk.isDiskFull(new IOException("No space left on device"))).isFalse();
    }
}
