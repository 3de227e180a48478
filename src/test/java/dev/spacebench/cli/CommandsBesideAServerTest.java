package dev.spacebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.ChildApp;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench publish} and {@code worker} started, each in its own JVM, beside a running server
 * (a real child app) that holds its H2 file: publish goes through the server as {@code bench}
 * does, and where it cannot, each says what to do in one line, with no stack trace.
 */
class CommandsBesideAServerTest {

    private static final String TINY_RUN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":5,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @TempDir
    Path temp;

    @Test
    void publishGoesThroughTheServerAndWorkerAndALockedDatabaseSayWhatToDoInOneLine() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("app"));
        String db = "jdbc:h2:file:" + dir.resolve("db");
        try (ChildApp app = ChildApp.start(dir, List.of(), List.of())) {
            long id = app.post("/api/runs", TINY_RUN).get("id").asLong();
            String status = app.await("/api/runs/" + id, run -> !List.of("QUEUED", "RUNNING").contains(run.get("status").asString()),
                    Duration.ofSeconds(180)).get("status").asString();
            assertThat(status).isEqualTo("SUCCEEDED");
            app.post("/api/benchmarks", "{\"slug\":\"noop-process\",\"runId\":" + id + "}");
            Path serverFile = dir.resolve("server.json");
            assertThat(serverFile).exists();

            // bench publish: the site the server serves, written into --out, said in one line.
            Path site = temp.resolve("site");
            CommandProcess.Finished publish = CommandProcess.run(temp, Map.of("SPACEBENCH_API_TOKEN", ChildApp.TOKEN),
                    "bench", "publish", "--out", site.toString(), "--db", db);
            assertThat(publish.code()).as(publish.output()).isZero();
            assertThat(publish.stderr()).isEmpty();
            assertThat(publish.stdout()).isEqualTo("wrote 1 benchmark(s) to " + site.toAbsolutePath().resolve("index.html")
                    + ", read from the server running at http://127.0.0.1:" + app.port() + "\n");
            assertThat(files(site)).isEqualTo(zipEntries(app));
            assertThat(Files.readString(site.resolve("noop-process/samples.csv")))
                    .isEqualTo(app.response("/api/runs/" + id + "/samples.csv").body());

            // worker: an H2 file a server holds cannot be a fleet's database.
            CommandProcess.Finished worker = CommandProcess.run(temp, Map.of(), "worker", "--spring.datasource.url=" + db);
            assertThat(worker.code()).as(worker.output()).isEqualTo(2);
            assertOneLine(worker);
            assertThat(worker.stderr()).startsWith("worker: the H2 database " + db + " belongs to the server running at http://127.0.0.1:"
                    + app.port() + " (pid " + app.process().pid() + ", ").contains("a fleet of workers needs PostgreSQL");

            // Without server.json (a server writes it last as it starts), publish opens the file itself, which H2 refuses.
            Path aside = Files.move(serverFile, dir.resolve("server.json.aside"));
            CommandProcess.Finished locked;
            try {
                locked = CommandProcess.run(temp, Map.of(), "bench", "publish", "--out", temp.resolve("site2").toString(), "--db", db);
            } finally {
                Files.move(aside, serverFile);
            }
            assertThat(locked.code()).as(locked.output()).isEqualTo(2);
            assertOneLine(locked);
            assertThat(locked.stderr()).startsWith("bench publish: the database " + db + " is open in another process");
            assertThat(app.process().isAlive()).isTrue();
        }
    }

    /** One line on stderr, nothing on stdout, and nothing of a stack trace in it. */
    private static void assertOneLine(CommandProcess.Finished finished) {
        assertThat(finished.stdout()).as(finished.output()).isEmpty();
        assertThat(finished.stderr().lines().toList()).as(finished.output()).hasSize(1);
        assertThat(finished.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    /** The files under {@code dir}, as '/'-separated relative paths. */
    private static TreeSet<String> files(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(f -> dir.relativize(f).toString().replace('\\', '/'))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    /** The file entries of the server's GET /api/site.zip, read here with the JDK's zip reader. */
    private static TreeSet<String> zipEntries(ChildApp app) throws Exception {
        byte[] zip = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/api/site.zip"))
                .build(), HttpResponse.BodyHandlers.ofByteArray()).body();
        TreeSet<String> names = new TreeSet<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (!entry.isDirectory()) {
                    names.add(entry.getName());
                }
            }
        }
        assertThat(names).contains("index.html", "noop-process/index.html");
        return names;
    }
}
