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
                    + "\"n\":1000000,\"warmups\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}").get("id").asLong();
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
                    + "\"n\":20,\"warmups\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}").get("id").asLong();
            JsonNode done = app.await("/api/runs/" + next, r -> r.path("finishedAt").isString(), Duration.ofSeconds(120));
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            app.stop();
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
