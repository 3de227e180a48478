package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.local.ProcessTrees;
import dev.spacebench.space.local.TokenFile;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The app killed (kill -9) with a run measuring and two more queued behind it, then started
 * again, as a real child JVM on an H2 file: the run that was measuring ends INTERRUPTED; the
 * queued process run, which never ran, is then run to its end (not marked INTERRUPTED by the new
 * app's start-up recovery, which once came after its worker had claimed it); the queued attach run
 * fails saying its token must be given again (the key that sealed it died with the app). And what
 * the killed Space's commands left outside the agent's tree, carrying the Space's environment
 * mark, is killed by the next start.
 */
class AppRestartQueueTest {

    private static final String LONG = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";
    private static final String SHORT = LONG.replace("1000000", "20");

    @TempDir
    Path temp;

    private AgentProcess agent;
    private final List<String> escapees = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        if (agent != null) {
            ProcessTrees.kill(agent.process().toHandle());
        }
        for (String text : escapees) {
            for (String line : Leftovers.processesMentioning(text)) {
                ProcessHandle.of(Long.parseLong(line.substring(0, line.indexOf(':')))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void queuedRunsSurviveAKillAndTheKilledSpacesEscapeesDoNot() throws Exception {
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        String url = "jdbc:h2:file:" + temp.resolve("db").resolve("sb");
        // An agent someone else started, for the attach run.
        Path agentDir = Files.createDirectory(temp.resolve("agent"));
        TokenFile token = TokenFile.create(agentDir);
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(List.of("--listen", "127.0.0.1:0", "--work-dir", Files.createDirectory(agentDir.resolve("work")).toString(),
                "--bulk-dir", Files.createDirectory(agentDir.resolve("bulk")).toString(), "--token-file", token.path().toString()));
        agent = AgentProcess.start(command, agentDir, agentDir.resolve("agent.log"), Duration.ofSeconds(60));

        long measuring;
        long queued;
        long attach;
        String daemon = "sleep 3610." + (1000 + System.nanoTime() % 9000);
        String background = "sleep 3611." + (1000 + System.nanoTime() % 9000);
        try (ChildApp app = ChildApp.start(url, spaces, temp.resolve("app.log"))) {
            measuring = app.post("/api/runs", LONG).get("id").asLong();
            app.await("/api/runs/" + measuring, r -> r.get("progress").get("done").asLong() > 20, Duration.ofSeconds(120));
            queued = app.post("/api/runs", SHORT).get("id").asLong();
            attach = app.post("/api/runs", "{\"space\":{\"kind\":\"attach\",\"target\":\"" + agent.address() + "\",\"token\":\""
                    + token.token() + "\"},\"plan\":" + SHORT.substring(SHORT.indexOf("\"plan\":") + 7)).get("id").asLong();
            assertThat(app.get("/api/runs/" + queued).get("status").asString()).isEqualTo("QUEUED");
            assertThat(app.get("/api/runs/" + attach).get("status").asString()).isEqualTo("QUEUED");

            // What the Space's commands could leave outside the agent's tree: carrying its mark, naming none of its paths.
            String space;
            try (Stream<Path> live = Files.list(spaces)) {
                space = live.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("process-")).findFirst().orElseThrow();
            }
            escape(space, "setsid " + daemon + " >/dev/null 2>&1 </dev/null &", daemon);
            escape(space, background + " >/dev/null 2>&1 </dev/null &", background);
            app.kill();
        }
        assertThat(Leftovers.processesMentioning(daemon)).as("the setsid daemon after kill -9").isNotEmpty();
        assertThat(Leftovers.processesMentioning(background)).as("the sleep & after kill -9").isNotEmpty();

        try (ChildApp again = ChildApp.start(url, spaces, temp.resolve("app2.log"))) {
            JsonNode interrupted = again.await("/api/runs/" + measuring, r -> !r.get("status").asString().equals("RUNNING"),
                    Duration.ofSeconds(60));
            assertThat(interrupted.get("status").asString()).as("the run that was measuring").isEqualTo("INTERRUPTED");

            JsonNode ran = again.await("/api/runs/" + queued, r -> !List.of("QUEUED", "RUNNING").contains(r.get("status").asString()),
                    Duration.ofSeconds(120));
            assertThat(ran.get("status").asString()).as("the queued run, which never ran before the kill: %s", ran)
                    .isEqualTo("SUCCEEDED");
            JsonNode noop = null;
            for (JsonNode result : ran.get("results")) {
                noop = result.get("metric").asString().equals("exec.noop") ? result : noop;
            }
            assertThat(noop).as("its exec.noop figures: %s", ran.get("results")).isNotNull();
            assertThat(noop.get("n").asLong() + noop.get("failures").asLong()).as("its round trips measured").isEqualTo(20);

            JsonNode refused = again.await("/api/runs/" + attach, r -> !List.of("QUEUED", "RUNNING").contains(r.get("status").asString()),
                    Duration.ofSeconds(60));
            assertThat(refused.get("status").asString()).as("the queued attach run: %s", refused).isEqualTo("FAILED");
            assertThat(refused.get("failureReason").asString()).contains("the app has restarted since: submit the run again with the token");

            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline
                    && !(Leftovers.processesMentioning(daemon).isEmpty() && Leftovers.processesMentioning(background).isEmpty())) {
                Thread.sleep(50);
            }
            assertThat(Leftovers.processesMentioning(daemon)).as("the setsid daemon after the restart").isEmpty();
            assertThat(Leftovers.processesMentioning(background)).as("the sleep & after the restart").isEmpty();
            assertThat(Files.readString(temp.resolve("app2.log"))).as("the start-up cleanup's log line")
                    .containsPattern("removed [1-9][0-9]* directories left under .* and killed [1-9][0-9]* processes of theirs");
        }
    }

    /** Runs {@code script} with the Space's mark, as its agent would, and waits until {@code running} shows. */
    private void escape(String space, String script, String running) throws Exception {
        escapees.add(running);
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put(ProcessSpaceProvider.SPACE_MARK, space);
        assertThat(builder.start().waitFor(10, TimeUnit.SECONDS)).isTrue();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline && Leftovers.processesMentioning(running).isEmpty()) {
            Thread.sleep(20);
        }
        assertThat(Leftovers.processesMentioning(running)).as("'%s' runs", running).isNotEmpty();
    }
}
