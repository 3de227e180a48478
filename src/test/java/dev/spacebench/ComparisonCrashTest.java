package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A comparison run's Spaces after the app is killed hard (kill -9) mid-run (issue 29): both are
 * still there until the next start, which ends the run INTERRUPTED and removes every one of them,
 * directories and processes (their directories carry the dead app as owner, as a single run's Space does).
 */
class ComparisonCrashTest {

    private static final String FOREVER = "{\"compare\":[{\"label\":\"A\",\"space\":{\"kind\":\"process\"}},"
            + "{\"label\":\"B\",\"space\":{\"kind\":\"process\"}}],\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @TempDir
    Path temp;

    @Test
    void theNextStartAfterKillNineRemovesEveryEntrysSpace() throws Exception {
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        String url = "jdbc:h2:file:" + temp.resolve("db").resolve("sb");
        long id;
        try (ChildApp app = ChildApp.start(url, spaces, temp.resolve("app.log"))) {
            id = app.post("/api/runs", FOREVER).get("id").asLong();
            app.await("/api/runs/" + id, r -> r.get("progress").get("done").asLong() > 200, Duration.ofSeconds(180));
            assertThat(spaceDirs(spaces)).as("both entries' Spaces while the run measures").hasSize(2);
            assertThat(spaceProcesses(spaces)).as("their processes").isNotEmpty();
            app.kill();
        }
        assertThat(spaceDirs(spaces)).as("both Spaces are left by the killed app").hasSize(2);
        try (ChildApp again = ChildApp.start(url, spaces, temp.resolve("app2.log"))) {
            JsonNode run = again.await("/api/runs/" + id, r -> !r.get("status").asString().equals("RUNNING"), Duration.ofSeconds(60));
            assertThat(run.get("status").asString()).isEqualTo("INTERRUPTED");
            assertThat(run.get("compare")).hasSize(2);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && !(spaceDirs(spaces).isEmpty() && spaceProcesses(spaces).isEmpty())) {
                Thread.sleep(50);
            }
            assertThat(spaceDirs(spaces)).as("Space directories after the next start").isEmpty();
            assertThat(spaceProcesses(spaces)).as("Space processes after the next start").isEmpty();
        }
    }

    private static List<String> spaceDirs(Path spaces) throws Exception {
        try (Stream<Path> left = Files.list(spaces)) {
            return left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("process-")).sorted().toList();
        }
    }

    /** Processes whose command line names the Spaces root, other than an app given it as its setting. */
    private static List<String> spaceProcesses(Path spaces) {
        return ProcessHandle.allProcesses().map(ChildApp::commandLine)
                .filter(c -> c.contains(spaces.toString()) && !c.contains("--spacebench.spaces.root")).toList();
    }
}
