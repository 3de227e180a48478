package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --help} through the real main entry in a child JVM: it prints help, exits 0, starts nothing. */
class HelpTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String stdout, String stderr) {}

    private Outcome run(String... args) throws IOException, InterruptedException {
        List<String> command = ChildApp.mainCommand(List.of(), List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        // A web app that started would never exit by itself: waiting bounded tells the two apart.
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        assertThat(exited).as("exited by itself; stdout: %s", Files.readString(out)).isTrue();
        return new Outcome(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err));
    }

    @Test
    void topLevelHelpListsTheSubcommandsAndStartsNoServer() throws Exception {
        for (String flag : List.of("--help", "-h")) {
            Outcome outcome = run(flag);
            assertThat(outcome.exit()).as(flag).isZero();
            assertThat(outcome.stdout()).startsWith("Usage: java -jar spacebench.jar [SUBCOMMAND] [OPTIONS]")
                    .contains("(none)", "agent", "bench", "worker", "floor", "--server.port=PORT", "-h, --help");
            assertThat(outcome.stdout() + outcome.stderr()).doesNotContain("Tomcat", "Started SpacebenchApplication");
            assertThat(dir.resolve("data")).as("no database was opened").doesNotExist();
        }
    }

    @Test
    void everySubcommandsHelpPrintsItsUsageAndExitsZero() throws Exception {
        for (List<String> args : List.of(List.of("bench", "--help"), List.of("bench", "publish", "-h"), List.of("worker", "--help"),
                List.of("floor", "--help"), List.of("floor", "ping", "--help"), List.of("floor", "cost", "-h"))) {
            Outcome outcome = run(args.toArray(String[]::new));
            assertThat(outcome.exit()).as("%s", args).isZero();
            assertThat(outcome.stdout()).as("%s", args).startsWith("Usage: ").contains(args.get(args.size() - 2) + " ");
            assertThat(outcome.stderr()).as("%s", args).isEmpty();
        }
        assertThat(run("worker", "--help").stdout()).contains("--testbed", "--spacebench.worker.lease=DUR", "Exit code 2");
        assertThat(run("floor", "--help").stdout()).contains("stream", "ping", "cost", "transfer");
        assertThat(run("floor", "ping", "--help").stdout()).contains("Usage: spacebench floor ping [-h] tcp|unix N WARMUPS");
        assertThat(dir.resolve("data")).as("no database was opened").doesNotExist();
    }

    @Test
    void aUsageErrorPrintsTheErrorAndTheUsageOnStderrAndExitsTwo() throws Exception {
        Outcome transport = run("floor", "ping", "sctp", "1", "1");
        assertThat(transport.exit()).isEqualTo(2);
        assertThat(transport.stderr()).contains("expected one of [tcp, unix]", "'sctp'", "Usage: spacebench floor ping");
        assertThat(transport.stdout()).isEmpty();

        Outcome bytes = run("floor", "stream", "x", "1", "1");
        assertThat(bytes.exit()).isEqualTo(2);
        assertThat(bytes.stderr()).contains("(BYTES): 'x' is not an int", "Usage: spacebench floor stream");

        Outcome option = run("bench", "--nope");
        assertThat(option.exit()).isEqualTo(2);
        assertThat(option.stderr()).contains("Unknown option: '--nope'", "Usage: spacebench bench");

        Outcome subcommand = run("floor", "pong", "1", "1");
        assertThat(subcommand.exit()).isEqualTo(2);
        assertThat(subcommand.stderr()).contains("'pong'", "Usage: spacebench floor");

        Outcome none = run("floor");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.stderr()).contains("Missing required subcommand", "Usage: spacebench floor");
        assertThat(dir.resolve("data")).as("no database was opened").doesNotExist();
    }

    @Test
    void agentHelpPrintsItsOptionsAndExitsZero() throws Exception {
        Outcome outcome = run("agent", "--help");
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.stdout()).contains("Usage: spacebench agent", "--work-dir DIR", "--bulk-dir DIR", "--listen",
                "--token-file", "--exit-on-stdin-eof");
        assertThat(outcome.stderr()).doesNotContain("unknown option");

        Outcome bad = run("agent", "--nope");
        assertThat(bad.exit()).as("a wrong option is still a usage error").isEqualTo(2);
        assertThat(bad.stderr()).contains("unknown option '--nope'");
    }
}
