package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping the app (SIGTERM) in the middle of a sandbox run deletes its Space: no directory, no
 * process left (bwrap's tree included). Runs the app as a real child JVM with the default kind of
 * database URL, so that its shutdown is a real one. The same for a process Space, stopped in a
 * 64 MiB transfer, is the end of {@link AppCrashTest}.
 */
class AppStopTest {

    @TempDir
    Path temp;

    @Test
    void stoppingTheAppMidRunLeavesNoSandboxSpaceBehind() throws Exception {
        String kind = "sandbox";
        assumeTrue(Stream.of(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, "bwrap"))),
                "sandbox: bwrap not on PATH (apt-get install bubblewrap)");
        Path spaces = Files.createDirectory(temp.resolve("spaces"));
        try (ChildApp app = ChildApp.start("jdbc:h2:file:" + temp.resolve("db"), spaces, temp.resolve("app.log"))) {
            String body = "{\"space\":{\"kind\":\"" + kind + "\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
                    + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";
            long id = app.post("/api/runs", body).get("id").asLong();
            app.await("/api/runs/" + id, run -> run.get("progress").get("done").asLong() > 20, Duration.ofSeconds(60));
            try (Stream<Path> live = Files.list(spaces)) {
                assertThat(live.toList()).as("the run's Space exists while it runs").isNotEmpty();
            }

            assertThat(app.stop()).as("the app stops within 60 s (SIGTERM: a normal stop)").isTrue();

            try (Stream<Path> left = Files.list(spaces)) {
                assertThat(left.toList()).as("Space directories left after the app stopped").isEmpty();
            }
            List<String> processes = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                    .filter(cmd -> cmd.contains(spaces.toString())).toList();
            assertThat(processes).as("Space processes left after the app stopped").isEmpty();
            // The run itself may not get to record its end (H2's exit hook can close the database
            // first); RunRecoveryTest covers it being marked INTERRUPTED at the next start.
        }
    }
}
