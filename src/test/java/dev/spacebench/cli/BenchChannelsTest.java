package dev.spacebench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench --channels} and {@code bench --kind command --name} (issue 27, point 7), each from a
 * JVM of its own as a user runs it: the run measures what the flags named, and its result.json says so.
 */
class BenchChannelsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PLAN = """
            {"exec": {"metrics": ["true"], "n": 4, "warmups": 0, "agentWarmupCalls": 0},
             "files": {"sizes": [{"bytes": 4096, "n": 2}], "warmups": 0}, "floor": {"enabled": false}}""";

    @TempDir
    Path temp;

    @Test
    void kindCommandWithANameMeasuresThatTargetOfTheTargetsFile() throws Exception {
        Path targets = Files.writeString(temp.resolve("targets.yaml"), """
                targets:
                  local-dir:
                    create: [mktemp, -d]
                    exec: [env, -C, "{id}", "{argv}"]
                    upload: [cp, "{local}", "{remote}"]
                    download: [cp, "{remote}", "{local}"]
                    delete: [rm, -rf, "{id}"]
                    workDir: "{id}"
                """);
        JsonNode result = bench(Map.of("SPACEBENCH_TARGETS_FILE", targets.toString()), "--kind", "command", "--name", "local-dir");
        assertThat(result.get("run").get("kind").asString()).isEqualTo("command");
        assertThat(metrics(result)).contains("via.command.exec.true", "via.command.file.upload.4KiB", "via.command.file.download.4KiB")
                .noneMatch(m -> m.startsWith("exec."));
        // --name alone implies the kind; a name the file does not have is refused naming the field.
        CommandProcess.Finished unknown = CommandProcess.run(temp, Map.of("SPACEBENCH_TARGETS_FILE", targets.toString()), "bench",
                "--name", "nope", "--plan", Files.writeString(temp.resolve("p2.json"), PLAN).toString(),
                "--db", "jdbc:h2:file:" + temp.resolve("db2").resolve("spacebench"));
        assertThat(unknown.code()).as(unknown.output()).isNotZero();
        assertThat(unknown.output()).contains("space.name").contains("no target 'nope'").contains("[local-dir]");
    }

    @Test
    void channelsMeasureTheSpaceThroughEachInOrder() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        JsonNode result = bench(Map.of(), "--kind", "process", "--channels", "agent,ssh");
        assertThat(metrics(result)).contains("exec.true", "via.ssh.exec.true", "file.upload.4KiB", "via.ssh.file.upload.4KiB");
    }

    @Test
    void compareWithANameIsAUsageErrorNamingTheOption() throws Exception {
        // A command target has no agent; a comparison reaches each Space through one (issue 27 meets 29).
        CommandProcess.Finished run = CommandProcess.run(temp, Map.of(), "bench", "--compare", "A=process", "--compare", "B=command",
                "--name", "local-dir", "--db", "jdbc:h2:file:" + temp.resolve("db3").resolve("spacebench"));
        assertThat(run.code()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("leave out --name");
    }

    private JsonNode bench(Map<String, String> environment, String... args) throws Exception {
        Path plan = Files.writeString(temp.resolve("plan.json"), PLAN);
        Path out = temp.resolve("out");
        List<String> all = new ArrayList<>(List.of("bench", "--plan", plan.toString(), "--out", out.toString(),
                "--db", "jdbc:h2:file:" + temp.resolve("db").resolve("spacebench")));
        all.addAll(List.of(args));
        CommandProcess.Finished run = CommandProcess.run(temp, environment, all.toArray(String[]::new));
        assertThat(run.code()).as(run.output()).isZero();
        JsonNode result = JSON.readTree(Files.readString(out.resolve("result.json")));
        assertThat(result.get("run").get("status").asString()).as(run.output()).isEqualTo("SUCCEEDED");
        return result;
    }

    private static List<String> metrics(JsonNode result) {
        return result.get("metrics").findValuesAsString("metric");
    }
}
