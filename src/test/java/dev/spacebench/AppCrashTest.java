package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.space.local.OwnerMark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The app killed hard (kill -9) or stopped (SIGTERM) in the middle of a run, as a real child JVM
 * on a plain H2 file URL (no AUTO_SERVER): what the API reported as saved is in the database
 * afterwards, the run ends INTERRUPTED, and no directory of it is left once the app starts again.
 * One test, so that the start after kill -9 is also the app stopped by SIGTERM: each start of the
 * app is a JVM, Flyway and the kind checks.
 */
class AppCrashTest {

    /** noop measured to the end (its figures saved), then true and 64 MiB files still to go. */
    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"true\"],"
            + "\"n\":1000,\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[{\"bytes\":67108864,\"n\":1000}],"
            + "\"warmups\":0},\"floor\":{\"enabled\":false}}}";
    /** noop measured to the end, then straight to the 64 MiB files (nothing in between to wait through). */
    private static final String SIGTERM_PLAN = PLAN.replace("[\"noop\",\"true\"]", "[\"noop\"]");

    @TempDir
    Path temp;

    @Test
    void killNineKeepsWhatTheApiReportedTheNextStartCleansUpAndSigtermRecordsTheRunsEnd() throws Exception {
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        String url = "jdbc:h2:file:" + temp.resolve("db").resolve("sb");
        // Another live app's Space on the same root (this test's JVM owns it): never touched.
        Path othersSpace = Files.createDirectory(spaces.resolve("process-live-other-app"));
        OwnerMark.write(othersSpace);

        long id;
        long reported;
        try (ChildApp app = ChildApp.start(url, spaces, temp.resolve("app.log"))) {
            id = app.post("/api/runs", PLAN).get("id").asLong();
            JsonNode run = app.await("/api/runs/" + id, r -> savedNoop(r) != null, Duration.ofSeconds(120));
            reported = savedSamples(run);
            app.kill();
            assertThat(reported).as("samples the API reported saved").isGreaterThanOrEqualTo(1000);
        }
        try (Connection db = ChildApp.openDatabase(url)) {
            assertThat(ChildApp.count(db, "select count(*) from sample where run_id = ?", id))
                    .as("samples in the database after kill -9 (the API had reported %d saved)", reported)
                    .isGreaterThanOrEqualTo(reported);
        }
        try (Stream<Path> left = Files.list(spaces)) {
            assertThat(left.map(p -> p.getFileName().toString()).toList())
                    .as("the killed app's Space and staging directories are still there before the next start")
                    .anyMatch(n -> n.startsWith("process-") && !n.equals("process-live-other-app"))
                    .anyMatch(n -> n.startsWith("run-" + id + "-"));
        }

        // One start serves both: the next start after kill -9, then the app stopped by SIGTERM mid-run.
        long stopped;
        long stoppedReported;
        try (ChildApp again = ChildApp.start(url, spaces, temp.resolve("app2.log"))) {
            JsonNode run = again.await("/api/runs/" + id, r -> !r.get("status").asString().equals("RUNNING"), Duration.ofSeconds(30));
            assertThat(run.get("status").asString()).isEqualTo("INTERRUPTED");
            try (Stream<Path> left = Files.list(spaces)) {
                assertThat(left.map(p -> p.getFileName().toString()).toList())
                        .as("what is left under the Spaces root after the next start")
                        .containsExactly("process-live-other-app");
            }
            assertThat(ProcessHandle.allProcesses().map(ChildApp::commandLine)
                    .filter(c -> c.contains(spaces.toString()) && !c.contains("--spacebench.spaces.root")).toList())
                    .as("processes of the killed app's Space").isEmpty();

            stopped = again.post("/api/runs", SIGTERM_PLAN).get("id").asLong();
            JsonNode measuring = again.await("/api/runs/" + stopped, r -> savedNoop(r) != null, Duration.ofSeconds(120));
            stoppedReported = savedSamples(measuring);
            // In the middle of a 64 MiB transfer: the stop waits for it, and H2's own exit hook must not close the database meanwhile.
            again.await("/api/runs/" + stopped, r -> r.get("progress").get("metric").asString("").startsWith("file."), Duration.ofSeconds(180));
            assertThat(again.stop()).as("the app stops within 60 s of SIGTERM").isTrue();
        }
        try (Connection db = ChildApp.openDatabase(url)) {
            try (PreparedStatement s = db.prepareStatement("select status, failure_reason from run where id = ?")) {
                s.setLong(1, stopped);
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as("the run's status after SIGTERM").isEqualTo("INTERRUPTED");
                    assertThat(rs.getString(2)).contains("the app was stopped");
                }
            }
            long samples = ChildApp.count(db, "select count(*) from sample where run_id = ?", stopped);
            assertThat(samples).as("samples kept (the API had reported %d)", stoppedReported).isGreaterThanOrEqualTo(stoppedReported);
            // The final figures are computed from every sample taken; each of those is in the table.
            assertThat(ChildApp.count(db, "select coalesce(sum(n + warmups + failures), 0) from metric_result where run_id = ?", stopped))
                    .as("samples behind the run's final figures").isEqualTo(samples);
        }
        try (Stream<Path> left = Files.list(spaces)) {
            assertThat(left.map(p -> p.getFileName().toString()).toList()).as("directories left after SIGTERM")
                    .containsExactly("process-live-other-app");
        }
    }

    private static JsonNode savedNoop(JsonNode run) {
        for (JsonNode result : run.get("results")) {
            if (result.get("metric").asString().equals("exec.noop") && result.get("n").asInt() + result.get("failures").asInt() == 1000) {
                return result;
            }
        }
        return null;
    }

    /** Samples behind the figures the API shows: saved before the figures were. */
    private static long savedSamples(JsonNode run) {
        long sum = 0;
        for (JsonNode result : run.get("results")) {
            sum += result.get("n").asLong() + result.get("warmups").asLong() + result.get("failures").asLong();
        }
        return sum;
    }
}
