package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A process Space's agent killed once it has answered the last round trip of the last loop: no
 * iteration failed, yet the run must not read SUCCEEDED with a {@code space.delete} time taken on
 * a dead agent. It ends FAILED saying the agent died after the last loop, its loop's figures kept
 * and no {@code space.delete} figure.
 *
 * <p>To land the kill in that gap every time, the app's {@code true} (first on its PATH, so its
 * agent's too) is a script: at its 7th call from one agent, the last of the loop, it freezes the
 * app (SIGSTOP) and exits; the agent answers into the frozen app's socket; once {@code ss} shows
 * those bytes waiting there, a detached shell kills the agent (kill -9) and thaws the app, which
 * reads the answer and goes on with a dead agent.
 */
class AgentDeathAfterLastLoopTest {

    private static final int N = 7;
    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"true\"],\"n\":" + N
            + ",\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @TempDir
    Path temp;

    // Does not yet land the kill in the gap: with the answer already in the frozen app's socket
    // (ss shows it), the app still reads the exec as UNAVAILABLE when it is thawed, so the run fails
    // mid-loop, not after it. Kept for the next attempt (e.g. an agent-side hook that exits after its
    // last answer is flushed).
    @org.junit.jupiter.api.Disabled("the injected kill lands in the last iteration, not after it: see the comment above")
    @Test
    void anAgentKilledAfterTheLastLoopFailsTheRunAndItsDeleteIsNotTimed() throws Exception {
        assumeTrue(java.util.stream.Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "ss"))), "ss not on PATH (apt-get install iproute2)");
        Path bin = Files.createDirectory(temp.resolve("bin"));
        Path marks = Files.createDirectory(temp.resolve("marks"));
        Path trueScript = Files.writeString(bin.resolve("true"), """
                #!/bin/sh
                d='%s'
                if [ -f "$d/arm" ]; then
                  n=$(( $(cat "$d/count-$PPID" 2>/dev/null || echo 0) + 1 ))
                  echo "$n" > "$d/count-$PPID"
                  if [ "$n" = %d ]; then
                    app=$(cat "$d/arm")
                    agent=$PPID
                    kill -STOP "$app"
                    (
                      # The agent's answer is in: bytes wait in the frozen app's socket from the agent's port (at most 60 s).
                      port=$(ss -Htlnp | awk -v p="pid=$agent," 'index($0, p) { n = split($4, a, ":"); print a[n]; exit }')
                      i=0
                      while [ "$(ss -Htn state established "( dport = :$port )" | awk '{ s += $1 } END { print s + 0 }')" = 0 ] \\
                          && [ "$i" -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
                      [ "$i" -lt 1200 ] && echo "$port" > "$d/answered"
                      kill -9 "$agent"; sleep 1; kill -CONT "$app"; echo "$agent" > "$d/killed"
                    ) >/dev/null 2>&1 </dev/null &
                  fi
                fi
                exit 0
                """.formatted(marks, N));
        Files.setPosixFilePermissions(trueScript, PosixFilePermissions.fromString("rwxr-xr-x"));

        List<String> wrapper = new ArrayList<>(List.of("env", "PATH=" + bin + ":" + System.getenv("PATH")));
        try (ChildApp app = ChildApp.start(temp, wrapper, List.of(), List.of("--spacebench.space.check-on-demand=container,vm"))) {
            Files.writeString(marks.resolve("arm"), Long.toString(app.process().pid()));
            long id = app.post("/api/runs", PLAN).get("id").asLong();
            JsonNode run = app.await("/api/runs/" + id, r -> !List.of("QUEUED", "RUNNING").contains(r.get("status").asString()),
                    Duration.ofSeconds(180));

            assertThat(marks.resolve("killed")).as("the script killed the agent").exists();
            assertThat(marks.resolve("answered")).as("the agent's last answer had reached the app's socket when it was killed").exists();
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
