package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A default run (interleaved, with its floor) from the packaged jar, as a user starts it
 * ({@code java -jar spacebench.jar bench}): every driver it starts (the floor's, the Space's loops
 * with the floor's blocks among them, a sweep level's) takes its class path from the jar, not from
 * the build's. Last session every such run failed with NoClassDefFoundError because that class
 * path lacked Jackson, and the unit tests, on the full class path, could not see it: a driver whose
 * class path lacks a library it needs now refuses at its start (DriverMain's check), which fails
 * this run. Runs in {@code verify}, after {@code package}.
 */
class PackagedJarDefaultRunIT {

    @TempDir
    Path temp;

    @Test
    void aDefaultInterleavedRunWithItsFloorAndASweepLevelSucceedsFromTheJar() throws Exception {
        Path jar = Path.of(System.getProperty("spacebench.jar", "target/spacebench.jar")).toAbsolutePath();
        assertThat(jar).exists();
        // No order: the default (interleaved); the floor's n and warm-ups are the exec's by default.
        Path plan = Files.writeString(temp.resolve("plan.json"), """
                {"exec": {"metrics": ["noop", "true"], "n": 20, "warmups": 2, "agentWarmupCalls": 50},
                 "files": {"sizes": [{"bytes": 65536, "n": 2}]},
                 "concurrency": {"levels": [2], "metrics": ["noop"], "n": 5}}""");
        Path out = temp.resolve("out");
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.io.tmpdir=" + tmp,
                "-jar", jar.toString(), "bench", "--kind", "process", "--plan", plan.toString(), "--out", out.toString(),
                "--db", "jdbc:h2:file:" + temp.resolve("db").resolve("sb"));
        Process bench = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true)
                .redirectOutput(temp.resolve("bench.log").toFile()).start();
        boolean done = bench.waitFor(600, TimeUnit.SECONDS);
        if (!done) {
            bench.destroyForcibly();
        }
        String log = Files.readString(temp.resolve("bench.log"), StandardCharsets.UTF_8);
        assertThat(done).as(log).isTrue();

        JsonNode result = JsonMapper.builder().build().readTree(Files.readString(out.resolve("result.json")));
        assertThat(result.get("run").get("status").asString()).as("%s\n%s", result.get("run"), log).isEqualTo("SUCCEEDED");
        assertThat(bench.exitValue()).as(log).isZero();
        assertThat(result.get("plan").get("order").asString()).isEqualTo("interleaved");

        Map<String, Long> measured = new HashMap<>();
        result.get("metrics").forEach(m -> measured.put(m.get("metric").asString(), m.get("n").asLong()));
        // Each from its own driver: the floor's (the timer), the Space's (its loops and the floor's blocks), the level's.
        assertThat(measured).containsEntry("floor.timer", 1L).containsEntry("exec.noop", 20L).containsEntry("exec.true", 20L)
                .containsEntry("floor.spawn.true", 20L).containsEntry("floor.spawn.sh_c", 20L).containsEntry("floor.grpc.noop", 20L)
                .containsEntry("file.upload.64KiB", 2L).containsEntry("sweep.2.exec.noop", 10L);
        if (onPath("hyperfine")) {
            // The floor's blocks read hyperfine's JSON with Jackson, in the Space's driver.
            assertThat(measured).containsEntry("floor.hyperfine.true", 20L).containsEntry("floor.hyperfine.sh_c", 20L);
        }
        String csv = Files.readString(out.resolve("samples.csv"));
        assertThat(csv.lines().findFirst().orElseThrow()).contains("block").contains("seq");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
