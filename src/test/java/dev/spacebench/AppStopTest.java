package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stopping the app (SIGTERM) in the middle of a run deletes its Space: no directory, no process
 * left. Runs the app as a real child JVM with the default kind of database URL, so that its
 * shutdown is a real one.
 */
class AppStopTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"process", "sandbox"})
    void stoppingTheAppMidRunLeavesNoSpaceBehind(String kind) throws Exception {
        if (kind.equals("sandbox")) {
            assumeTrue(Stream.of(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, "bwrap"))),
                    "sandbox: bwrap not on PATH (apt-get install bubblewrap)");
        }
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Djdk.lang.Process.launchMechanism=VFORK", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "--server.port=" + port,
                "--spring.datasource.url=jdbc:h2:file:" + temp.resolve("db"), "--spacebench.spaces.root=" + spaces,
                "--spacebench.worker.poll-interval-ms=200"));
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(temp.resolve("app.log").toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            awaitUp(base, app);
            String body = "{\"space\":{\"kind\":\"" + kind + "\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
                    + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";
            // The app made its API token next to the database file.
            String token = Files.readString(temp.resolve("api-token")).strip();
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            long id = JSON.readTree(created.body()).get("id").asLong();
            awaitMeasuring(base, id);
            try (Stream<Path> live = Files.list(spaces)) {
                assertThat(live.toList()).as("the run's Space exists while it runs").isNotEmpty();
            }

            app.destroy(); // SIGTERM: a normal stop
            assertThat(app.waitFor(60, TimeUnit.SECONDS)).as("the app stops within 60 s").isTrue();

            try (Stream<Path> left = Files.list(spaces)) {
                assertThat(left.toList()).as("Space directories left after the app stopped").isEmpty();
            }
            List<String> processes = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                    .filter(cmd -> cmd.contains(spaces.toString())).toList();
            assertThat(processes).as("Space processes left after the app stopped").isEmpty();
            // The run itself may not get to record its end (H2's exit hook can close the database
            // first); RunRecoveryTest covers it being marked INTERRUPTED at the next start.
        } finally {
            app.destroyForcibly();
        }
    }

    private void awaitUp(String base, Process app) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline && app.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the app did not come up: " + Files.readString(temp.resolve("app.log")));
    }

    private void awaitMeasuring(String base, long id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode run = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs/" + id)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            if (run.get("progress").get("done").asLong() > 20) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + id + " never started measuring");
    }
}
