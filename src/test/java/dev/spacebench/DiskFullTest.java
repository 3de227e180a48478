package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
        try (SmallDisk disk = SmallDisk.mount(temp.resolve("small"), "64m", "disk-full test");
             ChildApp app = ChildApp.start("jdbc:h2:file:" + temp.resolve("db").resolve("sb"), disk.dir(), temp.resolve("app.log"))) {
            Path mount = disk.dir();
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
        }
    }

    private static JsonNode run(ChildApp app, String files) throws Exception {
        long id = app.post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[],\"agentWarmupCalls\":0},\"files\":" + files
                + ",\"floor\":{\"enabled\":false}}}").get("id").asLong();
        return app.await("/api/runs/" + id, r -> !r.get("status").asString().equals("QUEUED") && !r.get("status").asString().equals("RUNNING"),
                Duration.ofSeconds(180));
    }
}
