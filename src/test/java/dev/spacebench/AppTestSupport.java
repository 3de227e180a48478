package dev.spacebench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import dev.spacebench.db.TestPostgres;
import dev.spacebench.system.ApiToken;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.UnlockCodes;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole app on a random port with its own H2 file database and Space directory; tests talk
 * to it over real HTTP. Subclasses share one application context.
 * <p>
 * With {@code -D}{@value #DATABASE}{@code =postgres} (pom.xml's second surefire execution) the app
 * runs on a fresh database on a real PostgreSQL ({@link TestPostgres}) instead; without a server
 * the tests are skipped with {@link TestPostgres#MISSING} as the reason.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(AppTestSupport.DatabaseCondition.class)
public abstract class AppTestSupport {

    /** The system property that picks the database: {@code h2} (default) or {@code postgres}. */
    public static final String DATABASE = "spacebench.test.db";

    protected static final Path DATA;
    protected static final Path SPACES;
    protected static final JsonMapper JSON = JsonMapper.builder().build();
    /** The PostgreSQL database the app runs on, or null on H2 (or when PostgreSQL was wanted but is missing). */
    protected static final TestPostgres POSTGRES;
    private static final String POSTGRES_PROBLEM;

    static {
        boolean postgres = "postgres".equals(System.getProperty(DATABASE, "h2"));
        TestPostgres db = null;
        String problem = null;
        if (postgres) {
            try {
                db = TestPostgres.create().orElse(null);
                problem = db == null ? TestPostgres.MISSING : null;
            } catch (IllegalStateException refused) {
                problem = refused.getMessage();
            }
        }
        POSTGRES = db;
        POSTGRES_PROBLEM = problem;
        try {
            // Not an H2 file: the app keeps its token and server.json in the default data directory.
            DATA = db != null ? DataDirectory.DEFAULT.toAbsolutePath() : Files.createTempDirectory("spacebench-test-data-");
            SPACES = Files.createTempDirectory("spacebench-test-spaces-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Decided before the context starts: with {@value #DATABASE}{@code =postgres} and no PostgreSQL
     * configured, the class is skipped, saying so; one configured (as in CI) but refusing fails it.
     */
    static final class DatabaseCondition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            if (POSTGRES_PROBLEM == null) {
                return ConditionEvaluationResult.enabled("the database is there");
            }
            if (TestPostgres.MISSING.equals(POSTGRES_PROBLEM)) {
                return ConditionEvaluationResult.disabled(DATABASE + "=postgres: " + POSTGRES_PROBLEM);
            }
            throw new IllegalStateException(DATABASE + "=postgres: " + POSTGRES_PROBLEM);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        if (POSTGRES != null) {
            registry.add("spring.datasource.url", POSTGRES::url);
            registry.add("spring.datasource.username", POSTGRES::user);
            registry.add("spring.datasource.password", POSTGRES::password);
        } else {
            registry.add("spring.datasource.url", () -> "jdbc:h2:file:" + DATA.resolve("spacebench"));
        }
        registry.add("spacebench.spaces.root", SPACES::toString);
        registry.add("spacebench.worker.poll-interval-ms", () -> "200");
        registry.add("spacebench.plan.max-file-bytes", () -> Long.toString(1L << 30));
        // A vm's check boots a guest (about a minute under emulation) that every run would wait for: only tests that ask for vm pay for it.
        registry.add("spacebench.space.check-on-demand", () -> "vm");
        // The wait for the app's JIT before each Space's start: a test JVM is rarely idle, and 3 s a Space adds minutes to the suite.
        registry.add("spacebench.space.quiet-before-start", () -> "250ms");
        // The same before each metric's measured loop: one 50 ms window, as the suite has a hundred or more loops.
        registry.add("spacebench.space.quiet-before-loops", () -> "50ms");
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected UnlockCodes unlockCodes;

    protected final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    protected HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs JSON with the API token, as a script does. */
    protected HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(withToken(HttpRequest.newBuilder(uri(path))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** DELETE with the API token. */
    protected HttpResponse<String> delete(String path) throws Exception {
        return http.send(withToken(HttpRequest.newBuilder(uri(path))).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }

    protected static HttpRequest.Builder withToken(HttpRequest.Builder request) throws IOException {
        return request.header("Authorization", "Bearer " + apiToken());
    }

    /** The API token the app created at its first start in the data directory. */
    protected static String apiToken() throws IOException {
        return Files.readString(DATA.resolve(ApiToken.FILE_NAME)).strip();
    }

    /** A browser's session on the app, unlocked through a one-time link as a user would. */
    protected BrowserSession unlockedBrowser() throws Exception {
        BrowserSession browser = new BrowserSession(this::uri);
        HttpResponse<String> unlocked = browser.get("/unlock?code=" + unlockCodes.issue());
        if (unlocked.statusCode() != 302 || !unlocked.headers().firstValue("Location").orElse("").endsWith("/")) {
            throw new AssertionError("the unlock link did not unlock: " + unlocked.statusCode() + " " + unlocked.headers().map());
        }
        return browser;
    }

    /**
     * One HTTP/1.1 exchange as written, over a socket: java.net.http will not send a Host header of
     * our choosing, nor a request target with a character that must be encoded.
     */
    protected String raw(String request) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    protected URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    protected static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** Polls GET /api/runs/{id} until the run has finished or the timeout passes. */
    protected JsonNode awaitFinished(long id, Duration timeout) throws Exception {
        return awaitRun(() -> json(get("/api/runs/" + id)), AppTestSupport::finished, timeout, Duration.ofMillis(200),
                "run " + id + " did not finish within " + timeout);
    }

    protected JsonNode awaitStatus(long id, String wanted, Duration timeout) throws Exception {
        return awaitRun(() -> json(get("/api/runs/" + id)), wanted::equals, timeout, Duration.ofMillis(100),
                "run " + id + " never reached " + wanted);
    }

    /** A run's answer as {@code GET /api/runs/{id}} gives it, however the test reaches the app. */
    public interface RunReader {
        JsonNode read() throws Exception;
    }

    /** Whether a run's status is an end (neither QUEUED nor RUNNING). */
    public static boolean finished(String status) {
        return !status.equals("QUEUED") && !status.equals("RUNNING");
    }

    /**
     * Reads the run every {@code every} until its status passes {@code done}.
     *
     * @return the first answer whose status passes
     * @throws AssertionError "{@code waitingFor}: last answer" once {@code timeout} has passed
     */
    public static JsonNode awaitRun(RunReader reader, Predicate<String> done, Duration timeout, Duration every, String waitingFor)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode run;
        do {
            run = reader.read();
            if (done.test(run.get("status").asString())) {
                return run;
            }
            Thread.sleep(every.toMillis());
        } while (System.nanoTime() < deadline);
        throw new AssertionError(waitingFor + ": " + run);
    }
}
