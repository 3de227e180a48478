package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * src/bench/floor-ratios.sh's own run() (taken from the script as it is, with src/bench/runs.sh,
 * which scale.sh polls through too) drives a real run on this app to its result.json without
 * starting python3: where python3 is a pyenv shim one start costs about 0.6 s of CPU, and the
 * scripts poll once a second inside the run's timed regions.
 */
class FloorRatiosScriptTest extends AppTestSupport {

    private static final String PLAN = """
            {"space":{"kind":"process"},"plan":{"spaces":1,"exec":{"metrics":["noop"],"n":5,"warmups":1,"agentWarmupCalls":20},\
            "files":{"sizes":[]},"floor":{"enabled":false}}}""";

    @Test
    void theScriptsRunFunctionPollsARunToItsEndWithoutPython() throws Exception {
        String script = Files.readString(Path.of("src/bench/floor-ratios.sh"));
        String functions = script.substring(script.indexOf("\nload() {") + 1, script.indexOf("\n}\n", script.indexOf("\nrun() {")) + 3);
        Path dir = Files.createTempDirectory("floor-ratios-test-");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("python3-calls");
        // A python3 first on the PATH that notes each start and then does what python3 would.
        Path python = Files.writeString(bin.resolve("python3"), "#!/bin/sh\necho \"$@\" >> '" + calls + "'\nexec /usr/bin/python3 \"$@\"\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));

        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "set -euo pipefail\n" + functions + "\nrun check '" + PLAN + "'\n")
                .directory(Path.of("").toAbsolutePath().toFile()).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("BASE", "http://127.0.0.1:" + port);
        builder.environment().put("WORK", dir.toString());
        builder.environment().put("SPACEBENCH_API_TOKEN", apiToken());
        Process bash = builder.start();
        bash.getOutputStream().close();
        String output;
        try {
            assertThat(bash.waitFor(3, TimeUnit.MINUTES)).isTrue();
            output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } finally {
            bash.destroyForcibly();
        }
        assertThat(bash.exitValue()).as(output).isZero();
        Path result = Path.of(output.lines().reduce((a, b) -> b).orElseThrow());
        assertThat(Files.readString(result)).contains("spacebench.result/v1", "SUCCEEDED");
        assertThat(calls).as("python3 was started while the run went on").doesNotExist();
    }

    @Test
    void aRunThatCannotBeFoundEndsTheWaitWithAFailure() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "source src/bench/runs.sh; await_run 987654321")
                .redirectErrorStream(true);
        builder.environment().put("BASE", "http://127.0.0.1:" + port);
        Process bash = builder.start();
        bash.getOutputStream().close();
        assertThat(bash.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("run 987654321 ended (no status)");
        assertThat(bash.exitValue()).isEqualTo(1);
    }

    @Test
    void scaleShPollsThroughTheSameFunctions() throws Exception {
        String script = Files.readString(Path.of("src/bench/scale.sh"));
        assertThat(script).contains("source src/bench/runs.sh", "post_run ", "await_run ").doesNotContain("[\"status\"]");
    }
}
