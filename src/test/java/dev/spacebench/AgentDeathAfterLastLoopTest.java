package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A process Space's agent dead once it has answered the last round trip of the last loop: no
 * iteration failed, yet the run must not read SUCCEEDED with a {@code space.delete} time taken on
 * a dead agent. It ends FAILED saying the agent died after the last loop, its loop's figures kept
 * and no {@code space.delete} figure.
 *
 * <p>The agent dies for real, by the fault it can be asked for ({@code SPACEBENCH_AGENT_DIE_AFTER=Exec:7},
 * set for the app, whose process Space's agent inherits it): it answers its 7 Exec calls, the last
 * of the loop, and exits with status 137 at the next call, without answering it. A kill sent from
 * outside does not land in that gap reliably (one that froze the app until the answer was in its
 * socket still made the app read the last call as failed).
 */
class AgentDeathAfterLastLoopTest {

    private static final int N = 7;
    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"true\"],\"n\":" + N
            + ",\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @TempDir
    Path temp;

    @Test
    void anAgentDeadAfterTheLastLoopFailsTheRunAndItsDeleteIsNotTimed() throws Exception {
        List<String> wrapper = List.of("env", "SPACEBENCH_AGENT_DIE_AFTER=Exec:" + N);
        try (ChildApp app = ChildApp.start(temp, wrapper, List.of(), List.of("--spacebench.space.check-on-demand=container,vm"))) {
            long id = app.post("/api/runs", PLAN).get("id").asLong();
            JsonNode run = app.await("/api/runs/" + id, r -> !List.of("QUEUED", "RUNNING").contains(r.get("status").asString()),
                    Duration.ofSeconds(180));

            assertThat(run.get("status").asString()).as("the run: %s", run).isEqualTo("FAILED");
            assertThat(run.get("failureReason").asString()).startsWith("the agent died after the last loop: no Ping answered within 5 s")
                    .contains("the Space was deleted but its delete not timed");
            List<String> metrics = new ArrayList<>();
            JsonNode loop = null;
            for (JsonNode result : run.get("results")) {
                metrics.add(result.get("metric").asString());
                loop = result.get("metric").asString().equals("exec.true") ? result : loop;
            }
            assertThat(loop).as("the loop's figures, kept: %s", metrics).isNotNull();
            assertThat(loop.get("n").asLong()).as("round trips that succeeded, every one of the loop").isEqualTo(N);
            assertThat(loop.get("failures").asLong()).isZero();
            assertThat(metrics).as("figures published").doesNotContain("space.delete");
            try (var left = Files.list(temp.resolve("spaces"))) {
                assertThat(left.toList()).as("the Space is deleted all the same").isEmpty();
            }
            String page = app.response("/runs/" + id).body();
            assertThat(page).contains("the agent died after the last loop");
        }
    }
}
