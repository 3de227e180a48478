package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged jar as a user runs it ({@code java -jar spacebench.jar bench}): the agent starts
 * from the class path the app unpacks from the jar, as in every Space. Runs in {@code verify},
 * after {@code package}.
 */
class PackagedJarIT {

    private static final String APP_FLAG = "-Dspacebench.it.app-flag=on";

    @TempDir
    Path temp;

    @Test
    void aRunFromTheJarRecordsTheAgentsVersionAndBothJvmsFlagsAsTheAgentReportsThem() throws Exception {
        Path jar = Path.of(System.getProperty("spacebench.jar", "target/spacebench.jar")).toAbsolutePath();
        String version = System.getProperty("spacebench.version");
        assertThat(jar).exists();
        assertThat(version).isNotBlank();
        Path plan = Files.writeString(temp.resolve("plan.json"), """
                {"exec": {"metrics": ["noop"], "n": 5, "warmups": 1, "agentWarmupCalls": 0},
                 "files": {"sizes": []}, "floor": {"enabled": false}}""");
        Path out = temp.resolve("out");
        // A temp directory of its own: no agent class path or class-data archive cached by an earlier
        // start of this jar, as on a machine that has just installed it.
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        List<String> command = new ArrayList<>(List.of(javaBinary(), APP_FLAG, "-Djava.io.tmpdir=" + tmp, "-jar", jar.toString(), "bench",
                "--kind", "process", "--plan", plan.toString(), "--out", out.toString(),
                "--db", "jdbc:h2:file:" + temp.resolve("db").resolve("sb")));
        Process bench = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true)
                .redirectOutput(temp.resolve("bench.log").toFile()).start();
        boolean done = bench.waitFor(300, TimeUnit.SECONDS);
        if (!done) {
            bench.destroyForcibly();
        }
        String log = Files.readString(temp.resolve("bench.log"), StandardCharsets.UTF_8);
        assertThat(done).as(log).isTrue();
        assertThat(bench.exitValue()).as(log).isZero();

        JsonNode environment = JsonMapper.builder().build().readTree(Files.readString(out.resolve("result.json")))
                .get("environment");
        assertThat(environment.get("agentVersion").asString()).isEqualTo(version);
        // The agent's flags as the agent itself reports them: the launcher passes these to its JVM.
        List<String> agentFlags = strings(environment.get("guest").get("jvmFlags"));
        assertThat(agentFlags).contains("-XX:+UseSerialGC", "-Xshare:auto");
        if (Runtime.version().feature() < 22) {
            assertThat(agentFlags).contains("-Djdk.lang.Process.launchMechanism=VFORK");
        }
        assertThat(agentFlags).doesNotContain(APP_FLAG);
        // The first run of a fresh install waited for the agent's class-data archive instead of
        // starting its Space without it.
        assertThat(agentFlags).anyMatch(flag -> flag.startsWith("-XX:SharedArchiveFile=" + tmp));
        List<String> appFlags = strings(environment.get("host").get("jvmFlags"));
        assertThat(appFlags).contains(APP_FLAG).doesNotContain("-XX:+UseSerialGC");

        String page = Files.readString(out.resolve("page.md"));
        assertThat(page).contains("Agent version").contains(version).contains("Agent JVM flags").contains("-XX:+UseSerialGC")
                .contains("Host JVM flags").contains(APP_FLAG);

        theReproduceBlockMeasuresTheSamePlanAgain(page, jar, out);
    }

    /**
     * The page's Reproduce block, run as a reader would run it in a clone, with the clone, checkout and
     * build lines left out (this jar is that build): it must succeed and measure the same plan.
     */
    private void theReproduceBlockMeasuresTheSamePlanAgain(String page, Path jar, Path firstOut) throws Exception {
        String block = page.substring(page.indexOf("## Reproduce"));
        block = block.substring(block.indexOf("```sh\n") + 6);
        block = block.substring(0, block.indexOf("\n```"));
        assertThat(block).as("the block builds the jar it then runs").contains("./mvnw -q -DskipTests package");
        String script = block.lines()
                .filter(line -> !line.startsWith("git ") && !line.startsWith("./mvnw "))
                .map(line -> line.replace("java -jar target/spacebench.jar", "'" + javaBinary() + "' -jar '" + jar + "'"))
                .reduce("set -e\n", (a, b) -> a + b + "\n");
        Path clone = Files.createDirectories(temp.resolve("clone"));
        Path scriptFile = Files.writeString(clone.resolve("reproduce.sh"), script);
        Process reproduce = new ProcessBuilder("bash", scriptFile.toString()).directory(clone.toFile()).redirectErrorStream(true)
                .redirectOutput(temp.resolve("reproduce.log").toFile()).start();
        boolean done = reproduce.waitFor(300, TimeUnit.SECONDS);
        if (!done) {
            reproduce.destroyForcibly();
        }
        String log = script + "\n---\n" + Files.readString(temp.resolve("reproduce.log"), StandardCharsets.UTF_8);
        assertThat(done).as(log).isTrue();
        assertThat(reproduce.exitValue()).as(log).isZero();
        JsonNode first = JsonMapper.builder().build().readTree(Files.readString(firstOut.resolve("result.json")));
        JsonNode again = JsonMapper.builder().build().readTree(Files.readString(clone.resolve("reproduced").resolve("result.json")));
        assertThat(again.get("plan")).as(log).isEqualTo(first.get("plan"));
        assertThat(again.get("space").get("kind").asString()).isEqualTo("process");
        assertThat(again.get("run").get("status").asString()).isEqualTo("SUCCEEDED");
    }

    private static List<String> strings(JsonNode array) {
        assertThat(array).as("a JSON array of flags").isNotNull();
        List<String> values = new ArrayList<>();
        array.forEach(node -> values.add(node.asString()));
        return values;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
