package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Spaces on a 64 MiB tmpfs: a transfer that fills it ends the run FAILED at once, saying whose disk
 * is full. Mounting needs root; elsewhere the test is skipped with a message.
 */
class DiskFullTest {

    @TempDir
    Path temp;

    @Test
    void aFullDiskEndsTheRunFailedSayingWhoseDisk() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "disk-full test: needs root to mount a tmpfs");
        Path mount = Files.createDirectory(temp.resolve("small"));
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0,
                "disk-full test: could not mount a tmpfs: " + new String(mounting.getInputStream().readAllBytes()));
        try (ChildApp app = ChildApp.start("jdbc:h2:file:" + temp.resolve("db").resolve("sb"), mount, temp.resolve("app.log"))) {
            // 40 MiB source in the staging directory, then 40 MiB more into the bulk lane: the Space's side is full.
            JsonNode bulk = run(app, "{\"sizes\":[{\"bytes\":41943040,\"n\":3}],\"warmups\":0}");
            assertThat(bulk.get("status").asString()).isEqualTo("FAILED");
            assertThat(bulk.get("failureReason").asString())
                    .isEqualTo("the disk of the Space is full (No space left on device) during file.upload.40MiB iteration 1");
            assertThat(bulk.get("failedSamples").asInt()).isEqualTo(1);

            // The same through the stream lane: the agent writes the file and says its disk is full.
            JsonNode stream = run(app, "{\"sizes\":[{\"bytes\":41943040,\"n\":3}],\"warmups\":0,\"bulkThresholdBytes\":1073741824}");
            assertThat(stream.get("status").asString()).isEqualTo("FAILED");
            assertThat(stream.get("failureReason").asString())
                    .isEqualTo("the disk of the Space is full (No space left on device) during file.upload.40MiB iteration 1");

            // A source file bigger than the disk: the host's staging directory is full before anything is sent.
            JsonNode host = run(app, "{\"sizes\":[{\"bytes\":104857600,\"n\":1}],\"warmups\":0}");
            assertThat(host.get("status").asString()).isEqualTo("FAILED");
            assertThat(host.get("failureReason").asString()).startsWith("the disk of the host's staging directory " + mount)
                    .endsWith("is full (No space left on device) during file.upload.100MiB iteration 1 (writing the random source file)");
            app.stop();
        } finally {
            new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static JsonNode run(ChildApp app, String files) throws Exception {
        long id = app.post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[]},\"files\":" + files
                + ",\"floor\":{\"enabled\":false}}}").get("id").asLong();
        return app.await("/api/runs/" + id, r -> !r.get("status").asString().equals("QUEUED") && !r.get("status").asString().equals("RUNNING"),
                Duration.ofSeconds(180));
    }
}
