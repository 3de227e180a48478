package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A targets file with a shell string where an argv list belongs: the app does not start, and says which file, entry and field. */
class TargetsFileRefusalTest {

    @TempDir
    Path temp;

    @Test
    void aBadTargetsFileStopsTheStartNamingFileEntryAndField() throws Exception {
        Path targets = Files.writeString(temp.resolve("targets.yaml"), """
                targets:
                  fine:
                    exec: [env, "{argv}"]
                  my-podman:
                    exec: "podman exec {id} {argv}"
                """);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = temp.resolve("app.log");
        Process app = new ProcessBuilder(ChildApp.mainCommand(List.of(), List.of("--server.port=" + port,
                "--spring.datasource.url=jdbc:h2:file:" + temp.resolve("data").resolve("sb"),
                "--spacebench.spaces.root=" + temp.resolve("spaces"), "--spacebench.space.check-on-demand=sandbox,container,vm",
                "--spacebench.targets-file=" + targets)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = app.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(exited).as("the app kept running with a bad targets file:\n" + output).isTrue();
        assertThat(app.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("targets file " + targets + ": entry 'my-podman', field 'exec': is a string (a shell line); "
                + "give an argv list").contains("or leave spacebench.targets-file blank");
        // Spring Boot's start-failure report, not a stack trace.
        assertThat(output).contains("APPLICATION FAILED TO START").doesNotContain("\tat ");
    }
}
