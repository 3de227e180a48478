package dev.spacebench.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.spacebench.live.LiveRun;
import dev.spacebench.request.FieldError;
import dev.spacebench.run.RunRequest;
import dev.spacebench.system.ApiToken;
import dev.spacebench.system.ServerFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures on a running server through its REST API: {@code POST /api/runs}, then the run's
 * server-sent events ({@code GET /api/runs/{id}/events}) until it has finished, then the three
 * exports. Every call carries the API token ({@code Authorization: Bearer …}) when there is one.
 */
final class RemoteBackend implements BenchBackend {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    // Leaves out what the command was not given, so the server applies its own defaults; reads
    // newer servers' extra fields without failing.
    private static final JsonMapper JSON = JsonMapper.builder()
            .changeDefaultPropertyInclusion(inclusion -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final URI server;
    private final String token;
    private final String foundIn;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

    /**
     * @param server the app's base URL, e.g. {@code http://127.0.0.1:8080}
     * @param token the API token, or null to send none
     * @param foundIn where the server was found (its server.json), or null when it was named by {@code --server}
     */
    RemoteBackend(URI server, String token, String foundIn) {
        this.token = token;
        this.foundIn = foundIn;
        String text = server.toString();
        this.server = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        if (this.server.getScheme() == null || !this.server.getScheme().startsWith("http") || this.server.getHost() == null) {
            throw new BenchException("--server must be an http(s) URL like http://127.0.0.1:8080, was '" + server + "'");
        }
    }

    /**
     * The server recorded in this data directory's {@code server.json}, if its process is alive,
     * called with the token a client here uses ({@code SPACEBENCH_API_TOKEN}, else the directory's file).
     */
    static Optional<RemoteBackend> running(Path dataDirectory, Map<String, String> environment) {
        return ServerFile.find(dataDirectory).map(server -> new RemoteBackend(server.url(),
                ApiToken.forClient(dataDirectory, environment).orElse(null), server.file().toString()));
    }

    /** The server's base URL, e.g. {@code http://127.0.0.1:8080}. */
    URI server() {
        return server;
    }

    @Override
    public String where() {
        return foundIn == null ? "measuring on " + server
                : "measuring on the server running at " + server + " (found in " + foundIn + "), through its REST API";
    }

    @Override
    public long submit(RunRequest request) {
        HttpResponse<String> response = send(call("/api/runs").timeout(CALL_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request))).build());
        if (response.statusCode() == 400) {
            throw new BenchException(RequestErrors.describe(problemErrors(response.body())));
        }
        expect(response, 201, "POST /api/runs");
        return read(response.body()).get("id").asLong();
    }

    @Override
    public LiveRun follow(long id, Consumer<LiveRun> progress) {
        HttpRequest request = call("/api/runs/" + id + "/events")
                .header("Accept", "text/event-stream").GET().build();
        HttpResponse<Stream<String>> response = send(request, HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
            throw new BenchException("GET /api/runs/" + id + "/events answered " + response.statusCode());
        }
        LiveRun last = null;
        try (Stream<String> lines = response.body()) {
            Iterator<String> it = lines.iterator();
            List<String> data = new ArrayList<>();
            while (it.hasNext()) {
                String line = it.next();
                if (line.startsWith("data:")) {
                    data.add(line.substring("data:".length()));
                } else if (line.isEmpty() && !data.isEmpty()) {
                    last = JSON.readValue(String.join("\n", data), LiveRun.class);
                    data.clear();
                    progress.accept(last);
                    if (last.finished()) {
                        return last;
                    }
                }
            }
        } catch (JacksonException e) {
            throw new BenchException("the server sent an event this command cannot read: " + e.getOriginalMessage(), e);
        }
        throw new BenchException("the server closed run " + id + "'s event stream before the run finished"
                + (last == null ? "" : " (last seen: " + last.status() + ", " + last.step() + ")"));
    }

    @Override
    public void requireBaseline(String name) {
        HttpResponse<String> response = send(call("/api/baselines/" + name).timeout(CALL_TIMEOUT).GET().build());
        if (response.statusCode() == 404) {
            throw new BenchException("--baseline: " + problemErrors(response.body()).get(0).message());
        }
        expect(response, 200, "GET /api/baselines/" + name);
    }

    @Override
    public String check(long id, BaselineCheck check) {
        String path = "/api/runs/" + id + "/check?baseline=" + check.baseline() + "&threshold=" + check.threshold()
                + "&statistic=" + check.statistic() + (check.level() == null ? "" : "&level=" + check.level());
        HttpResponse<String> response = send(call(path).timeout(CALL_TIMEOUT).GET().build());
        if (response.statusCode() == 400 || response.statusCode() == 404) {
            throw new BenchException("the check against " + check.baseline() + " could not be made:\n"
                    + RequestErrors.lines(problemErrors(response.body())));
        }
        expect(response, 200, "GET " + path);
        return response.body();
    }

    @Override
    public void export(long id, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        // Every file the run's links list: the server's exporters, whichever they are.
        HttpResponse<String> run = send(call("/api/runs/" + id).timeout(CALL_TIMEOUT).GET().build());
        expect(run, 200, "GET /api/runs/" + id);
        JsonNode downloads = JSON.readTree(run.body()).path("links").path("downloads");
        for (String name : downloads.propertyNames()) {
            String path = downloads.get(name).asString();
            HttpResponse<Path> response = send(call(path).timeout(CALL_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofFile(dir.resolve(name)));
            if (response.statusCode() != 200) {
                throw new BenchException("GET " + path + " answered " + response.statusCode());
            }
        }
    }

    /** Unpacks the server's {@code GET /api/site.zip} into {@code dir}; entries that would land outside it are refused. */
    @Override
    public int publishSite(Path dir) {
        HttpResponse<InputStream> response = send(call("/api/site.zip").timeout(CALL_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        int benchmarks = 0;
        try (ZipInputStream zip = new ZipInputStream(response.body())) {
            if (response.statusCode() != 200) {
                throw new BenchException("GET /api/site.zip answered " + response.statusCode() + ": "
                        + new String(zip.readAllBytes(), StandardCharsets.UTF_8));
            }
            Path root = dir.toAbsolutePath().normalize();
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path file = root.resolve(entry.getName()).normalize();
                if (!file.startsWith(root) || file.equals(root)) {
                    throw new BenchException("the server's site.zip holds '" + entry.getName() + "', which is not a file inside " + root);
                }
                if (entry.isDirectory()) {
                    continue;
                }
                Files.createDirectories(file.getParent());
                Files.copy(zip, file, StandardCopyOption.REPLACE_EXISTING);
                // One folder per benchmark, each with its page, as StaticSite writes them.
                if (entry.getName().matches("[^/]+/index\\.html")) {
                    benchmarks++;
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot write the site into " + dir + ": " + e.getMessage(), e);
        }
        return benchmarks;
    }

    @Override
    public void cancel(long id) {
        try {
            send(call("/api/runs/" + id + "/cancel").timeout(CALL_TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.noBody()).build());
        } catch (BenchException e) {
            // The event stream then ends on its own when the server is gone; nothing more to do here.
        }
    }

    @Override
    public void close() {
        // HttpClient holds no connection between calls that needs closing on Java 17.
    }

    private HttpResponse<String> send(HttpRequest request) {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
        HttpResponse<T> response;
        try {
            response = http.send(request, body);
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while calling " + request.uri(), e);
        }
        if (response.statusCode() == 401) {
            throw new BenchException("the server at " + server + " refused the call (401): " + (token == null
                    ? "it needs the API token; set " + ApiToken.VARIABLE + ", or run bench where the server's data directory is (its "
                            + ApiToken.FILE_NAME + " file is read from there)"
                    : "the token sent is not its API token (from " + ApiToken.VARIABLE + " or the data directory's " + ApiToken.FILE_NAME + ")"));
        }
        return response;
    }

    private BenchException unreachable(IOException e) {
        String why = e instanceof java.net.ConnectException ? "nothing answers there (is the server running?)"
                : e instanceof java.net.http.HttpTimeoutException ? "no answer in time"
                : e.getMessage() == null ? e.toString() : e.getMessage();
        return new BenchException("cannot reach the server at " + server + ": " + why, e);
    }

    private static void expect(HttpResponse<String> response, int status, String call) {
        if (response.statusCode() != status) {
            throw new BenchException(call + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            throw new BenchException("the server answered something that is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static List<FieldError> problemErrors(String body) {
        JsonNode problem = read(body);
        List<FieldError> errors = new ArrayList<>();
        problem.path("errors").forEach(e -> errors.add(new FieldError(e.path("field").asString(), e.path("message").asString())));
        if (errors.isEmpty()) {
            errors.add(new FieldError("request", problem.path("detail").asString(body)));
        }
        return errors;
    }

    private URI uri(String path) {
        return URI.create(server + path);
    }

    private HttpRequest.Builder call(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        return token == null ? request : request.header("Authorization", "Bearer " + token);
    }
}
