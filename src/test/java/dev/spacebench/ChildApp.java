package dev.spacebench;

import java.io.IOException;
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
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The app as a real child JVM on a free port, with its own database, Space and check directories
 * under {@code dir}, for what only a separate process can show (JVM flags, namespaces, a real
 * stop). State-changing calls carry the API token the child is started with.
 */
final class ChildApp implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Process process;
    private final Path log;
    private final String base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ChildApp(Process process, Path log, String base, String token) {
        this.process = process;
        this.log = log;
        this.base = base;
        this.token = token;
    }

    /**
     * Starts the app and waits until it answers.
     *
     * @param wrapper what the java command is run through (e.g. {@code unshare … sh -c 'exec "$0" "$@"'}); may be empty
     * @param jvmOptions options for the child's JVM, before its class path
     */
    static ChildApp start(Path dir, List<String> wrapper, List<String> jvmOptions) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(wrapper);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Djdk.lang.Process.launchMechanism=VFORK");
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SpacebenchApplication.class.getName(),
                "--server.port=" + port, "--spring.datasource.url=jdbc:h2:file:" + dir.resolve("db") + ";AUTO_SERVER=TRUE",
                "--spacebench.spaces.root=" + Files.createDirectories(dir.resolve("spaces")),
                "--spacebench.space.checks-root=" + dir.resolve("checks"), "--spacebench.worker.poll-interval-ms=200"));
        Path log = dir.resolve("app.log");
        String token = UUID.randomUUID().toString();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("SPACEBENCH_API_TOKEN", token);
        ChildApp app = new ChildApp(builder.start(), log, "http://127.0.0.1:" + port, token);
        try {
            app.awaitUp();
        } catch (Exception | AssertionError e) {
            app.close();
            throw e;
        }
        return app;
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GET, the body read as JSON. */
    JsonNode json(String path) throws Exception {
        return json(get(path));
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The child's output so far, for failure messages. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void awaitUp() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (get("/actuator/health").statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the app did not come up: " + log());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
