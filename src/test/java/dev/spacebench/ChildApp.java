package dev.spacebench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The app as a real child JVM (so that kill -9 and SIGTERM are real), on its own port, database
 * URL and Spaces root, talked to over HTTP.
 */
public final class ChildApp implements AutoCloseable {

    /** The token the child is started with, for when state changes need one. */
    public static final String TOKEN = "child-app-test-token-0123456789abcdef";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Process process;
    private final String base;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ChildApp(Process process, String base, Path log) {
        this.process = process;
        this.base = base;
        this.log = log;
    }

    /**
     * Starts the app and waits until its health endpoint answers. Its container and vm kinds are
     * checked only if a run asks for one: the tests that start it this way use process and sandbox,
     * and a podman container and a vm booted at every start cost the suite CPU it has not got.
     */
    public static ChildApp start(String dbUrl, Path spaces, Path log) throws Exception {
        return launch(List.of(), List.of(), List.of("--spring.datasource.url=" + dbUrl, "--spacebench.spaces.root=" + spaces,
                "--spacebench.space.check-on-demand=container,vm"), log);
    }

    /**
     * Starts the app with its database, Spaces and kind checks under {@code dir}, its log in
     * {@code dir/app.log}, and waits until it answers.
     *
     * @param wrapper what the java command is run through (e.g. {@code unshare … sh -c 'exec "$0" "$@"'}); may be empty
     * @param jvmOptions options for the child's JVM, before its class path
     */
    public static ChildApp start(Path dir, List<String> wrapper, List<String> jvmOptions) throws Exception {
        return start(dir, wrapper, jvmOptions, List.of());
    }

    /** As above, with more app arguments (e.g. {@code --spacebench.space.check-on-demand=vm}). */
    public static ChildApp start(Path dir, List<String> wrapper, List<String> jvmOptions, List<String> appArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("--spring.datasource.url=jdbc:h2:file:" + dir.resolve("db"),
                "--spacebench.spaces.root=" + Files.createDirectories(dir.resolve("spaces")),
                "--spacebench.space.checks-root=" + dir.resolve("checks")));
        args.addAll(appArgs);
        return launch(wrapper, jvmOptions, args, dir.resolve("app.log"));
    }

    /** Starts the app with these JVM options and app arguments (database, Spaces root…), its log in {@code log}. */
    public static ChildApp startWith(List<String> jvmOptions, List<String> appArgs, Path log) throws Exception {
        return launch(List.of(), jvmOptions, appArgs, log);
    }

    private static ChildApp launch(List<String> wrapper, List<String> jvmOptions, List<String> appArgs, Path log) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(wrapper);
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--spacebench.worker.poll-interval-ms=200"));
        args.addAll(QUIET);
        args.addAll(appArgs);
        command.addAll(mainCommand(jvmOptions, args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("SPACEBENCH_API_TOKEN", TOKEN);
        ChildApp app = new ChildApp(builder.start(), "http://127.0.0.1:" + port, log);
        try {
            app.awaitUp();
        } catch (Exception | AssertionError e) {
            app.close();
            throw e;
        }
        return app;
    }

    /**
     * As AppTestSupport: the waits for the app's JIT to go idle before each Space's start and each
     * metric's loop, shortened for the suite (3 s each by default; nothing here asserts what they buy).
     */
    public static final List<String> QUIET = List.of("--spacebench.space.quiet-before-start=250ms",
            "--spacebench.space.quiet-before-loops=50ms");

    /**
     * JVM options every app, worker and command JVM a test starts gets: C1 only, as
     * {@code spring-boot:run} starts an app. Their starts are what these tests wait for, not what
     * they measure, and C2 compiling Spring's start-up competes with the test for 2 cores: measured
     * (one app to its first healthy answer, load 22) 30.3 s of CPU with C2, 14.4 s without. The
     * packaged jar's own test (PackagedJarIT) starts it with the JVM's defaults, as a user does.
     */
    public static final List<String> JVM = List.of("-XX:TieredStopAtLevel=1");

    /**
     * The command line of the jar's entry ({@link Main}) in a JVM of its own on the app's class path
     * ({@link ChildClassPath}: its classes and runtime libraries, with a class-data archive), as
     * {@code java -jar spacebench.jar ARGS…} runs it (with {@link #JVM} before {@code jvmOptions}).
     */
    public static List<String> mainCommand(List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Djdk.lang.Process.launchMechanism=VFORK");
        command.addAll(JVM);
        command.addAll(jvmOptions);
        command.addAll(ChildClassPath.jvmOptions());
        command.add(Main.class.getName());
        command.addAll(args);
        return command;
    }

    /** GET, the whole answer. */
    public HttpResponse<String> response(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POST with the token, the whole answer whatever its status. */
    public HttpResponse<String> send(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    public static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** The port its web server listens on (on 127.0.0.1). */
    public int port() {
        return URI.create(base).getPort();
    }

    public Process process() {
        return process;
    }

    public JsonNode get(String path) throws Exception {
        return JSON.readTree(response(path).body());
    }

    /** POSTs JSON and returns the answer's body as JSON. */
    public JsonNode post(String path, String json) throws Exception {
        HttpResponse<String> response = send(path, json);
        if (response.statusCode() >= 300) {
            throw new AssertionError("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Polls GET {@code path} every 10 ms until {@code until} holds for its JSON. */
    public JsonNode await(String path, Predicate<JsonNode> until, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline && process.isAlive()) {
            last = get(path);
            if (until.test(last)) {
                return last;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("GET " + path + " never got there: " + last + "\n" + tail());
    }

    /** kill -9, and waits for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, a normal stop; true when the app exited within 60 s. */
    public boolean stop() throws InterruptedException {
        process.destroy();
        return process.waitFor(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    /** The end of the app's log, for assertion messages. */
    public String tail() {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 4000));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Read from /proc: ProcessHandle.Info cuts long command lines (an agent's class path) short. */
    public static String commandLine(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + process.pid() + "/cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Opens the app's H2 database directly (the app must not hold it). */
    public static Connection openDatabase(String dbUrl) throws SQLException {
        return DriverManager.getConnection(dbUrl, "sa", "");
    }

    /** The one number {@code sql} answers (a count, a sum) with {@code id} bound to its only parameter. */
    public static long count(Connection db, String sql, long id) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void awaitUp() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the app did not come up: " + tail());
    }
}
