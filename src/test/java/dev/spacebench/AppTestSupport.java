package dev.spacebench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole app on a random port with its own H2 file database and Space directory; tests talk
 * to it over real HTTP. Subclasses share one application context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class AppTestSupport {

    protected static final Path DATA;
    protected static final Path SPACES;
    protected static final JsonMapper JSON = JsonMapper.builder().build();

    static {
        try {
            DATA = Files.createTempDirectory("spacebench-test-data-");
            SPACES = Files.createTempDirectory("spacebench-test-spaces-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:h2:file:" + DATA.resolve("spacebench") + ";AUTO_SERVER=TRUE");
        registry.add("spacebench.spaces.root", SPACES::toString);
        registry.add("spacebench.worker.poll-interval-ms", () -> "200");
        registry.add("spacebench.plan.max-file-bytes", () -> Long.toString(1L << 30));
    }

    @LocalServerPort
    protected int port;

    protected final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    protected HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    protected HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    protected URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    protected static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** Polls GET /api/runs/{id} until the run has finished or the timeout passes. */
    protected JsonNode awaitFinished(long id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode run;
        do {
            run = json(get("/api/runs/" + id));
            String status = run.get("status").asString();
            if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
                return run;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " did not finish within " + timeout + ": " + run);
    }

    protected JsonNode awaitStatus(long id, String wanted, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode run;
        do {
            run = json(get("/api/runs/" + id));
            if (run.get("status").asString().equals(wanted)) {
                return run;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " never reached " + wanted + ": " + run);
    }
}
