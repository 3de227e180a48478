package dev.spacebench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.spacebench.ChildApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C while {@code bench} starts the app in its own JVM: it cancels the start-up, closes the
 * database and exits 2 (a run that did not succeed), printing what it does in plain lines and no
 * stack trace; nothing was queued.
 */
class BenchCtrlCTest {

    @TempDir
    Path temp;

    /**
     * @param afterDatabaseMs how long after the database file appears the signal is sent: at once
     *     (Flyway and the connection pool are starting) or later (JPA is being built)
     */
    @ParameterizedTest(name = "SIGINT {0} ms after the database file appears")
    @ValueSource(ints = {0, 1500})
    void ctrlCDuringStartUpCancelsCleanlyAndExits2(int afterDatabaseMs) throws Exception {
        // A JVM whose SIGINT is ignored from birth (started with & by a shell without job control) never sees Ctrl-C.
        String ignored = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("SigIgn:"))
                .findFirst().orElseThrow().substring("SigIgn:".length()).trim();
        assumeFalse((Long.parseUnsignedLong(ignored, 16) & (1L << (2 - 1))) != 0,
                "this test's JVM ignores SIGINT (started in the background without job control), so its child would too");
        Path db = temp.resolve("db");
        String url = "jdbc:h2:file:" + db.resolve("spacebench");
        CommandProcess bench = CommandProcess.start(temp, Map.of(), "bench", "--plan", "quick", "--kind", "process",
                "--db", url, "--out", temp.resolve("out").toString());
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
            while (!Files.exists(db.resolve("spacebench.mv.db")) && bench.alive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(db.resolve("spacebench.mv.db")).as("the start-up reached the database").exists();
            Thread.sleep(afterDatabaseMs);
            bench.signal("INT");
            CommandProcess.Finished finished = bench.await(Duration.ofSeconds(120));

            assertThat(finished.code()).as(finished.output()).isEqualTo(2);
            assertThat(finished.stdout()).as("nothing queued, nothing measured").isEmpty();
            assertThat(finished.stderr().lines().filter(l -> !l.isBlank()).toList()).as(finished.output()).containsExactly(
                    "bench: cancelling the start-up (nothing has been measured); press Ctrl-C again to quit at once",
                    "bench: cancelled while starting: nothing was measured or written");
            assertThat(temp.resolve("out")).doesNotExist();
        } finally {
            bench.kill();
        }
        // The database opens here (the command has let go of it) and holds no run.
        try (Connection c = ChildApp.openDatabase(url); ResultSet rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'RUN'")) {
            rs.next();
            if (rs.getLong(1) == 1) {
                try (ResultSet runs = c.createStatement().executeQuery("SELECT COUNT(*) FROM run")) {
                    runs.next();
                    assertThat(runs.getLong(1)).as("runs queued").isZero();
                }
            }
        }
    }
}
