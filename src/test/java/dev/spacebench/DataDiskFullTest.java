package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The app's data directory (its H2 file) on a 32 MiB tmpfs that another writer fills while a run
 * goes on: the run ends FAILED saying the database's disk is full, health is DOWN with that
 * reason, requests that need the database get a 503 problem+json naming it, the log says it a few
 * times rather than on every request, and once the space is freed the app works again without a
 * restart. Mounting needs root; elsewhere the test is skipped with a message.
 */
class DataDiskFullTest {

    private static final String FULL = "the database's disk is full";

    @TempDir
    Path temp;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aFullDataDirectoryEndsTheRunFailedAndTheAppRecoversWhenSpaceIsFreed() throws Exception {
        Path log = temp.resolve("app.log");
        try (SmallDisk disk = SmallDisk.mount(temp.resolve("data"), "32m", "data-disk-full test");
             ChildApp app = ChildApp.start("jdbc:h2:file:" + disk.dir().resolve("sb"), Files.createDirectory(temp.resolve("spaces")), log)) {
            Path data = disk.dir();
            // A new database: made private by the app (the tmpfs's root was rwxrwxrwt).
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("sb.mv.db")))).isEqualTo("rw-------");
            // A run that would go on for minutes: exec noop, a million times, samples saved every 500.
            long id = app.post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],"
                    + "\"n\":1000000,\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}").get("id").asLong();
            app.await("/api/runs/" + id, r -> r.path("progress").path("iteration").asLong(0) > 2000, Duration.ofSeconds(120));

            // Another writer takes every free byte of the data directory's disk.
            Path filler = data.resolve("filler");
            fill(filler);
            long linesBefore = lines(log);

            JsonNode failed = app.await("/api/runs/" + id, r -> "FAILED".equals(r.path("status").asString()), Duration.ofSeconds(60));
            assertThat(failed.get("failureReason").asString()).startsWith(FULL).contains("No space left on device");

            // While the disk stays full: health DOWN with the reason, new runs refused with a 503 naming it.
            HttpResponse<String> health = get(app, "/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
            assertThat(health.body()).contains("\"DOWN\"").contains(FULL);
            HttpResponse<String> refused = app.send("/api/runs", "{\"space\":{\"kind\":\"process\"}}");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(refused.body()).contains(FULL);
            // A browser starting a run from the dashboard's form gets the HTML error page, 503 with the reason, not problem+json.
            BrowserSession browser = new BrowserSession(path -> URI.create("http://127.0.0.1:" + app.port() + path));
            assertThat(browser.submit("/login", "/login", Map.of("token", ChildApp.TOKEN)).statusCode()).isEqualTo(302);
            HttpResponse<String> page = browser.submit("/", "/runs", Map.of("kind", "process", "metrics", "noop", "execN", "1",
                    "fileSizes", "", "floor", "off"));
            assertThat(page.statusCode()).as(page.body()).isEqualTo(503);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(page.body()).contains("<h1>503 Service Unavailable</h1>").contains("the database&#39;s disk is full (No space left")
                    .contains("new runs are refused until there is room on it again").doesNotContain("did not expect");
            // The run and its page still read (the database reopened on the room the app kept in reserve).
            assertThat(app.response("/api/runs/" + id).statusCode()).isEqualTo(200);
            // Some seconds of a full disk, with the dashboard's and the worker's background work going on: a few lines, not thousands.
            Thread.sleep(3000);
            long added = lines(log) - linesBefore;
            assertThat(added).as("log lines while the disk was full, these and their stack frames:\n" + linesAfter(log, linesBefore))
                    .isLessThan(60);

            // Space freed: the app works again by itself.
            Files.delete(filler);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (get(app, "/actuator/health").statusCode() != 200 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(get(app, "/actuator/health").statusCode()).as(app.tail()).isEqualTo(200);
            long next = app.post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],"
                    + "\"n\":20,\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}").get("id").asLong();
            JsonNode done = app.await("/api/runs/" + next, r -> r.path("finishedAt").isString(), Duration.ofSeconds(120));
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            app.stop();
        }
    }

    /**
     * As above, but another writer goes on taking every byte that comes free, the room the app kept
     * in reserve too, so that the run's end cannot be written; the app is then killed (kill -9) and
     * started again once the space is freed. The run ends INTERRUPTED at that start, saying the
     * database's disk was full, where and since when: the app left that in its reserve as it gave
     * the room back.
     */
    @Test
    void whenEvenTheReserveIsTakenTheNextStartSaysTheDiskWasFull() throws Exception {
        Path log = temp.resolve("app.log");
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        try (SmallDisk disk = SmallDisk.mount(temp.resolve("data"), "32m", "data-disk-full test")) {
            Path data = disk.dir();
            String url = "jdbc:h2:file:" + data.resolve("sb");
            Path reserve = data.resolve("disk-reserve");
            Path filler = data.resolve("filler");
            long id;
            String since;
            try (ChildApp app = ChildApp.start(url, spaces, log)) {
                assertThat(Files.size(reserve)).as("the reserve, 8 MiB by default").isEqualTo(8L << 20);
                id = app.post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],"
                        + "\"n\":1000000,\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}").get("id").asLong();
                app.await("/api/runs/" + id, r -> r.path("progress").path("iteration").asLong(0) > 600, Duration.ofSeconds(120));

                AtomicBoolean stop = new AtomicBoolean();
                Thread writer = new Thread(() -> takeEveryFreeByte(filler, stop), "filler");
                writer.start();
                try {
                    // The app gives its reserve back when its samples cannot be saved; the writer takes that room too.
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (!(Files.exists(reserve) && Files.size(reserve) < 4096) && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    assertThat(Files.size(reserve)).as("the reserve, given back:\n" + app.tail()).isLessThan(4096);
                    // Some of the app's tries to write the run's end, each failing.
                    Thread.sleep(3000);
                    app.kill();
                } finally {
                    stop.set(true);
                    writer.join();
                }
                Files.delete(filler);
                since = Instant.now().toString();
            }
            Path again = temp.resolve("app-again.log");
            try (ChildApp app = ChildApp.start(url, spaces, again)) {
                JsonNode run = app.get("/api/runs/" + id);
                assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("INTERRUPTED");
                String reason = run.get("failureReason").asString();
                String start = "the database's disk was full when the app stopped while this run was RUNNING (No space left on device in "
                        + data.toAbsolutePath() + ", since ";
                assertThat(reason).startsWith(start).endsWith("; found at the next start): the run's end could not be written, not even "
                        + "on the room the app kept in reserve; the samples saved before are kept");
                // Since when: the time the app gave its reserve back, before this test freed the disk.
                String when = reason.substring(start.length(), reason.indexOf("; found at the next start"));
                assertThat(when).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC");
                assertThat(LocalDateTime.parse(when.replace(" UTC", "").replace(' ', 'T')).toInstant(ZoneOffset.UTC))
                        .isBefore(Instant.parse(since)).isAfter(Instant.parse(since).minus(Duration.ofMinutes(2)));
                assertThat(Files.readString(again)).contains("the database's disk was full when the app last stopped");
                // The disk has room again: the reserve is made anew and runs are taken.
                assertThat(Files.size(reserve)).isEqualTo(8L << 20);
                assertThat(get(app, "/actuator/health").statusCode()).isEqualTo(200);
                app.stop();
            }
        }
    }

    /** Writes {@code file} until told to stop, taking every byte the disk frees at once (a write larger than the disk takes what there is). */
    private static void takeEveryFreeByte(Path file, AtomicBoolean stop) {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(32 << 20);
            while (!stop.get()) {
                chunk.clear();
                try {
                    out.write(chunk);
                } catch (IOException full) {
                    // No room yet: look again very soon (the app's freed reserve must go to this writer, not to H2).
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Writes {@code file} until the disk says it is full (1 MiB at a time, then 4 KiB). */
    private static void fill(Path file) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int size : new int[] {1 << 20, 4096, 1}) {
                ByteBuffer chunk = ByteBuffer.allocate(size);
                try {
                    while (true) {
                        chunk.clear();
                        out.write(chunk);
                    }
                } catch (IOException full) {
                    assertThat(full.getMessage()).contains("No space left on device");
                }
            }
        }
    }

    /** The lines after the first {@code skip}, without stack frames. */
    private static String linesAfter(Path log, long skip) throws IOException {
        try (var stream = Files.lines(log)) {
            return String.join("\n", stream.skip(skip).filter(line -> !line.startsWith("\tat ") && !line.startsWith("\t...")).toList());
        }
    }

    private static long lines(Path log) throws IOException {
        try (var stream = Files.lines(log)) {
            return stream.count();
        }
    }

    /** GET with the API token (health names its reasons to an operator only). */
    private HttpResponse<String> get(ChildApp app, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Authorization", "Bearer " + ChildApp.TOKEN).build(), HttpResponse.BodyHandlers.ofString());
    }
}
