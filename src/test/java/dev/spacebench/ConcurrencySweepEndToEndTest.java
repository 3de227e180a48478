package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.space.KindChecks;
import dev.spacebench.space.KindStatus;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The concurrency sweep (issue 13) end to end: levels [1, 2, 4] of sandbox Spaces, every level's
 * pooled figures recomputed from samples.csv in Python, and nothing left behind — also when the run
 * is cancelled in the middle of a level.
 */
class ConcurrencySweepEndToEndTest extends AppTestSupport {

    private static final String SWEEP = """
            {"space": {"kind": "%s"},
             "plan": {"exec": {"metrics": [], "n": 1, "warmups": 1, "agentWarmupCalls": 20},
                      "files": {"sizes": [], "warmups": 0},
                      "floor": {"enabled": false},
                      "concurrency": {"levels": %s, "metrics": ["sh_c"], "n": %d, "fileBytes": 65536, "fileN": 2}}}""";

    @Autowired
    KindChecks checks;

    @Test
    void aSandboxSweepRecomputesFromItsSamplesAndLeavesNothingBehind() throws Exception {
        KindStatus sandbox = checks.await("sandbox", Duration.ofMinutes(3));
        assumeTrue(sandbox.passed(), () -> "sandbox cannot run here: " + sandbox.reasonAndFix());
        long id = json(post("/api/runs", SWEEP.formatted("sandbox", "[1, 2, 4]", 15))).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(run.get("progress").get("percent").asDouble()).isEqualTo(100.0);

        String csv = get("/api/runs/" + id + "/samples.csv").body();
        assertThat(csv.lines().findFirst()).hasValue("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry");
        // Per level of L Spaces: L × (ready + delete + sh_c 1 warm-up and 15 measured + 2 uploads and 2 downloads).
        long sweepRows = csv.lines().filter(l -> l.startsWith("sweep.")).count();
        assertThat(sweepRows).isEqualTo((1 + 2 + 4) * (2 + 16 + 4));

        Path dir = Files.createTempDirectory("spacebench-sweep-check-");
        Path samples = Files.writeString(dir.resolve("samples.csv"), csv);
        Path result = Files.writeString(dir.resolve("result.json"), get("/api/runs/" + id + "/result.json").body());
        assertPython("check_sweep.py", samples, result);
        assertPython("check_result.py", samples, result);

        JsonNode concurrency = json(get("/api/runs/" + id + "/result.json")).get("concurrency");
        assertThat(concurrency.get("levels").toString()).isEqualTo("[1,2,4]");
        assertThat(concurrency.get("hostCpus").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        String knee = concurrency.get("knee").asString();
        assertThat(knee).contains("sh -c true");
        String html = get("/runs/" + id).body();
        String markdown = get("/api/runs/" + id + "/page.md").body();
        assertThat(html).contains("id=\"concurrency\"", "id=\"knee\"", "data-metric=\"sweep.4.exec.sh_c\" data-stat=\"p99\"");
        assertThat(html.replace("&#39;", "'")).contains(knee);
        assertThat(markdown).contains(knee, "### Concurrency sweep", "](plots/sweep.latency.svg)", "](plots/sweep.rate.svg)");
        for (String plot : List.of("sweep.latency", "sweep.rate")) {
            HttpResponse<String> svg = get("/api/runs/" + id + "/plots/" + plot + ".svg");
            assertThat(svg.statusCode()).as(plot).isEqualTo(200);
            // One marker per level and line, and the host's CPU count marked.
            assertThat(svg.body()).startsWith("<svg").contains("data-cpus=\"" + concurrency.get("hostCpus").asInt() + "\"");
            assertThat(svg.body().split("class=\"point\"", -1)).hasSize(1 + 3 * (plot.equals("sweep.latency") ? 2 : 1));
        }
        assertCheckAtALevel(id);
        assertNothingLeftBehind();
    }

    /** compare/check at a level: only that level's figures, each against the baseline's of the same id. */
    private void assertCheckAtALevel(long id) throws Exception {
        assertThat(post("/api/baselines", "{\"name\":\"sweep-" + id + "\",\"runId\":" + id + "}").statusCode()).isEqualTo(201);
        JsonNode check = json(get("/api/runs/" + id + "/check?baseline=sweep-" + id + "&threshold=1.0&statistic=p99&level=4"));
        assertThat(check.get("verdict").asString()).isEqualTo("pass");
        assertThat(check.get("metrics")).extracting(m -> m.get("metric").asString()).containsExactlyInAnyOrder(
                "sweep.4.space.ready", "sweep.4.exec.sh_c", "sweep.4.file.upload.64KiB", "sweep.4.file.download.64KiB",
                "sweep.4.space.delete");
        JsonNode result = json(get("/api/runs/" + id + "/result.json"));
        for (JsonNode m : check.get("metrics")) {
            JsonNode figures = null;
            for (JsonNode r : result.get("metrics")) {
                if (r.get("metric").asString().equals(m.get("metric").asString())) {
                    figures = r;
                }
            }
            assertThat(m.get("runNs").asLong()).isEqualTo(figures.get("p99Ns").asLong());
        }
        HttpResponse<String> missing = get("/api/runs/" + id + "/check?baseline=sweep-" + id + "&threshold=1.0&statistic=p99&level=3");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(json(missing).get("errors").get(0).get("field").asString()).isEqualTo("level");
    }

    @Test
    void cancellingInTheMiddleOfALevelDeletesEveryOneOfItsSpaces() throws Exception {
        long id = json(post("/api/runs", SWEEP.formatted("process", "[2, 3]", 200_000))).get("id").asLong();
        // Level 2 runs its 2 × 200,000 round trips for longer than this test waits: cancel once they run.
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        String where = "";
        while (Instant.now().isBefore(deadline) && !where.equals("sweep.2.exec.sh_c measured")) {
            Thread.sleep(100);
            JsonNode progress = json(get("/api/runs/" + id)).get("progress");
            where = progress == null || progress.get("metric").isNull() ? ""
                    : progress.get("metric").asString() + " " + progress.get("phase").asString();
        }
        assertThat(where).as("the sweep's first level got to its measured loops").isEqualTo("sweep.2.exec.sh_c measured");
        Thread.sleep(300);
        assertThat(post("/api/runs/" + id + "/cancel", "").statusCode()).isEqualTo(200);
        JsonNode run = awaitFinished(id, Duration.ofMinutes(1));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("CANCELLED");
        String csv = get("/api/runs/" + id + "/samples.csv").body();
        // What the level took before the cancel stands: its ready, its loop's samples, its delete.
        assertThat(csv.lines().filter(l -> l.startsWith("sweep.2.space.ready,")).count()).isEqualTo(2);
        assertThat(csv.lines().filter(l -> l.startsWith("sweep.2.exec.sh_c,")).count()).isPositive();
        assertThat(csv.lines().filter(l -> l.startsWith("sweep.2.space.delete,")).count()).isEqualTo(2);
        assertThat(csv.lines().filter(l -> l.startsWith("sweep.3.")).count()).isZero();
        assertNothingLeftBehind();
    }

    @Test
    void aSweepBeyondTheConfiguredMaximumOrTheHostsMemoryIsRefusedNamingWhich() throws Exception {
        HttpResponse<String> tooMany = post("/api/runs", SWEEP.formatted("process", "[1, 65]", 10));
        assertThat(tooMany.statusCode()).isEqualTo(400);
        JsonNode error = json(tooMany).get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("plan.concurrency.levels[1]");
        assertThat(error.get("message").asString()).contains("from 1 to 64", "spacebench.plan.max-concurrency", "was 65");

        // A third of this host's memory per Space: 3 fit, 4 do not.
        long hostMiB = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024).findFirst().orElseThrow();
        long shape = hostMiB / 3;
        String body = SWEEP.formatted("process", "[1, 4]", 10)
                .replace("{\"kind\": \"process\"}", "{\"kind\": \"process\", \"memoryMiB\": " + shape + "}");
        HttpResponse<String> tooBig = post("/api/runs", body);
        assertThat(tooBig.statusCode()).as(tooBig.body()).isEqualTo(400);
        error = json(tooBig).get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("plan.concurrency.levels[1]");
        assertThat(error.get("message").asString()).contains("host memory", "was 4", "of the shape's " + shape + " MiB")
                .contains("at most " + hostMiB / shape);
    }

    private static void assertPython(String script, Path samples, Path result) throws Exception {
        Process python = new ProcessBuilder("python3", "src/test/python/" + script, samples.toString(), result.toString())
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes());
        assertThat(python.waitFor()).as(script + ": " + output).isZero();
        assertThat(output.strip()).as(script).endsWith(" passed, 0 failed");
    }

    private void assertNothingLeftBehind() throws Exception {
        try (Stream<Path> left = Files.list(SPACES)) {
            assertThat(left.toList()).as("Space directories left behind").isEmpty();
        }
        List<String> agents = ProcessHandle.allProcesses()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(cmd -> cmd.contains(SPACES.toString()))
                .toList();
        assertThat(agents).as("agent processes left behind").isEmpty();
    }
}
