package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.cli.BenchCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The app as a user starts it: a real JVM in a fresh working directory with the default
 * database URL. It listens on its web port and nothing else, makes its API token owner-only,
 * records itself for {@code bench}, and prints a one-time unlock link; with
 * {@code SPACEBENCH_API_TOKEN} set that token replaces the file, and bound off loopback, reads
 * need the token too.
 */
class AppAccessTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ENDLESS_RUN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";
    private static final String TINY_PLAN = "{\"exec\": {\"metrics\": [\"noop\"], \"n\": 5, \"warmups\": 0, \"agentWarmupCalls\": 0},"
            + " \"files\": {\"sizes\": []}, \"floor\": {\"enabled\": false}}";

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @TempDir
    Path temp;

    @Test
    void theDefaultAppListensOnItsWebPortOnlyAndBenchFindsItThroughItsDataDirectory() throws Exception {
        App app = start(Map.of());
        try {
            assertThat(ListeningSockets.of(app.process.pid()).stream().map(Object::toString).toList())
                    .as("sockets the app's JVM listens on").containsExactly("127.0.0.1:" + app.port);

            Path data = temp.resolve("data");
            Path tokenFile = data.resolve("api-token");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
            String token = Files.readString(tokenFile).strip();
            Path serverFile = data.resolve("server.json");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(serverFile))).isEqualTo("rw-------");
            JsonNode server = JSON.readTree(Files.readString(serverFile));
            assertThat(server.get("url").asString()).isEqualTo(app.base);
            assertThat(server.get("pid").asLong()).isEqualTo(app.process.pid());

            String log = app.log();
            assertThat(log).contains("API token for scripts and bench (Authorization: Bearer …): in " + tokenFile.toRealPath())
                    .doesNotContain(token).doesNotContainIgnoringCase("generated security password");
            Matcher link = Pattern.compile(Pattern.quote(app.base) + "/unlock\\?code=[A-Za-z0-9_-]+").matcher(log);
            assertThat(link.find()).as(log).isTrue();
            assertThat(redirect(link.group())).isEqualTo(app.base + "/");
            assertThat(redirect(link.group())).as("the link a second time").isEqualTo(app.base + "/login?link=used");

            // While a run measures, the app still listens on its web port alone, and what its Space
            // listens on is loopback.
            long id = JSON.readTree(send(app, "POST", "/api/runs", ENDLESS_RUN, token).body()).get("id").asLong();
            awaitMeasuring(app, id);
            assertThat(ListeningSockets.of(app.process.pid()).stream().map(Object::toString).toList()).containsExactly("127.0.0.1:" + app.port);
            List<ProcessHandle> space = app.process.descendants().toList();
            assertThat(space).as("the run's agent").isNotEmpty();
            for (ProcessHandle process : space) {
                for (ListeningSockets.Listener listener : ListeningSockets.of(process.pid())) {
                    assertThat(listener.address().isLoopbackAddress()).as(process.info().commandLine().orElse("?") + " listens on " + listener).isTrue();
                }
            }
            assertThat(send(app, "POST", "/api/runs/" + id + "/cancel", "", token).statusCode()).isEqualTo(200);

            // bench on the same data directory goes through the server, with the token from the directory.
            Path plan = Files.writeString(temp.resolve("tiny.json"), TINY_PLAN);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = BenchCommand.execute(new String[] {"--plan", plan.toString(), "--kind", "process", "--out", temp.resolve("bench").toString(),
                    "--db", "jdbc:h2:file:" + data.resolve("spacebench")}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), false);
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(code).as(printed + err.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(printed.lines().findFirst().orElseThrow()).endsWith("measuring on the server running at " + app.base
                    + " (found in " + serverFile + "), through its REST API");

            app.process.destroy();
            assertThat(app.process.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(serverFile).as("removed when the server stops").doesNotExist();
        } finally {
            app.process.destroyForcibly();
        }
    }

    @Test
    void theEnvironmentsTokenReplacesTheFileAndOffLoopbackReadsNeedItToo() throws Exception {
        byte[] random = new byte[20];
        new SecureRandom().nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        App app = start(Map.of("SPACEBENCH_API_TOKEN", token), "--server.address=0.0.0.0");
        try {
            Set<ListeningSockets.Listener> listening = ListeningSockets.of(app.process.pid());
            assertThat(listening).hasSize(1);
            assertThat(listening.iterator().next().port()).isEqualTo(app.port);
            assertThat(temp.resolve("data").resolve("api-token")).as("no token file when the variable sets it").doesNotExist();
            assertThat(app.log()).contains("API token for scripts and bench (Authorization: Bearer …): from the environment variable SPACEBENCH_API_TOKEN")
                    .doesNotContain(token);

            assertThat(send(app, "GET", "/api/runs", null, null).statusCode()).isEqualTo(401);
            assertThat(send(app, "GET", "/api/runs", null, "wrong-token-of-some-length").statusCode()).isEqualTo(401);
            assertThat(send(app, "GET", "/api/runs", null, token).statusCode()).isEqualTo(200);
            HttpResponse<String> page = send(app, "GET", "/runs", null, null);
            assertThat(page.statusCode()).isEqualTo(302);
            assertThat(page.headers().firstValue("Location")).as("back to /runs once unlocked")
                    .hasValueSatisfying(l -> assertThat(l).endsWith("/login?then=%2Fruns"));
            assertThat(send(app, "GET", "/login", null, null).statusCode()).isEqualTo(200);
            assertThat(send(app, "GET", "/css/spacebench.css", null, null).statusCode()).isEqualTo(200);
            assertThat(send(app, "GET", "/actuator/health", null, null).statusCode()).isEqualTo(200);

            HttpResponse<String> created = send(app, "POST", "/api/runs", ENDLESS_RUN, token);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            long id = JSON.readTree(created.body()).get("id").asLong();
            assertThat(send(app, "POST", "/api/runs/" + id + "/cancel", "", token).statusCode()).isEqualTo(200);
        } finally {
            app.process.destroy();
            if (!app.process.waitFor(90, TimeUnit.SECONDS)) {
                app.process.destroyForcibly();
            }
        }
    }

    private record App(Process process, int port, String base, Path logFile) {
        String log() throws java.io.IOException {
            return Files.readString(logFile);
        }
    }

    /** The jar's main class in its own JVM, working in the temp directory: ./data is its data directory. */
    private App start(Map<String, String> environment, String... extra) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> args = new ArrayList<>(List.of("--server.port=" + port,
                "--spacebench.spaces.root=" + Files.createDirectories(temp.resolve("spaces")), "--spacebench.worker.poll-interval-ms=200",
                // Its runs use process: a podman container and a vm checked at every start cost CPU the suite has not got.
                "--spacebench.space.check-on-demand=container,vm"));
        args.addAll(ChildApp.QUIET);
        args.addAll(List.of(extra));
        List<String> command = ChildApp.mainCommand(List.of(), args);
        Path log = temp.resolve("app.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("SPACEBENCH_API_TOKEN");
        builder.environment().remove("SPRING_DATASOURCE_URL");
        builder.environment().putAll(environment);
        App app = new App(builder.start(), port, "http://127.0.0.1:" + port, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (System.nanoTime() < deadline && app.process.isAlive()) {
            try {
                if (send(app, "GET", "/actuator/health", null, null).statusCode() == 200 && app.log().contains("/unlock?code=")) {
                    return app;
                }
            } catch (java.io.IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        app.process.destroyForcibly();
        throw new AssertionError("the app did not come up: " + app.log());
    }

    private HttpResponse<String> send(App app, String method, String path, String json, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(app.base + path)).timeout(Duration.ofSeconds(120))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String redirect(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(302);
        return response.headers().firstValue("Location").orElseThrow();
    }

    private void awaitMeasuring(App app, long id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode run = JSON.readTree(send(app, "GET", "/api/runs/" + id, null, null).body());
            if (run.get("progress").get("done").asLong() > 20) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + id + " never started measuring");
    }
}
