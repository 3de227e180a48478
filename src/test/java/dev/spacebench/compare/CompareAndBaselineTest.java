package dev.spacebench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.AppTestSupport;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/** Baselines, comparisons, the regression check and the BMF / HdrHistogram exports, over real HTTP. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompareAndBaselineTest extends AppTestSupport {

    private static final String TINY = "{\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"sh_c\"],\"n\":30,\"warmups\":2,\"agentWarmupCalls\":20},"
            + "\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    private long a;
    private long b;

    @BeforeAll
    void twoRuns() throws Exception {
        a = json(post("/api/runs", TINY)).get("id").asLong();
        b = json(post("/api/runs", TINY)).get("id").asLong();
        assertThat(awaitFinished(a, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(awaitFinished(b, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void twoRunsAreComparedWithATestOfSignificance() throws Exception {
        JsonNode c = json(get("/api/compare?runs=" + a + "," + b));
        assertThat(c.get("rows")).extracting(r -> r.get("metric").asString()).containsExactly("space.ready", "space.ready.create",
                "space.ready.agent", "space.ready.ping", "exec.noop", "exec.sh_c", "space.delete");
        JsonNode shc = row(c, "exec.sh_c");
        assertThat(shc.get("test").asString()).startsWith("Mann-Whitney U (two-sided) p = ");
        double[] scipy = scipyMannWhitney("exec.sh_c");
        assertThat(shc.get("pValue").asDouble()).as("p against SciPy's").isCloseTo(scipy[1], within(1e-9));
        assertThat(shc.get("ratio").asDouble()).isCloseTo(shc.get("bP50Ns").asDouble() / shc.get("aP50Ns").asDouble(), within(1e-12));
        assertThat(row(c, "space.ready").get("test").asString()).isEqualTo("not testable: fewer than 2 samples on a side");
        assertThat(c.get("likeForLike").asBoolean()).isTrue();

        HttpResponse<String> page = get("/compare?runs=" + a + "," + b);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"compare-table\"").contains("Environments side by side");

        HttpResponse<String> bad = get("/api/compare?runs=" + a);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("errors").get(0).get("field").asString()).isEqualTo("runs");
    }

    private static JsonNode environmentRow(JsonNode comparison, String label) {
        for (JsonNode row : comparison.get("environment")) {
            if (row.get("label").asString().equals(label)) {
                return row;
            }
        }
        throw new AssertionError("no environment row " + label + " in " + comparison.get("environment"));
    }

    /** This machine's answer, read here from the CPU's flags with the wording the page promises. */
    private static String hostVirtualizationFromCpuinfo() throws Exception {
        String flags = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("flags"))
                .findFirst().orElseThrow();
        java.util.List<String> set = java.util.List.of(flags.substring(flags.indexOf(':') + 1).trim().split(" +"));
        return (set.contains("hypervisor") ? "a virtual machine (the CPU reports a hypervisor)"
                : "no hypervisor reported by the CPU (bare metal, or a hypervisor that hides itself)") + "; "
                + (set.contains("vmx") ? "vmx (Intel VT-x) offered to guests" : set.contains("svm") ? "svm (AMD-V) offered to guests"
                : "no vmx/svm offered to guests (a KVM guest cannot run here)");
    }

    /** SciPy's U and p for one metric of runs a and b, from their samples.csv (src/test/python/mann_whitney.py). */
    private double[] scipyMannWhitney(String metric) throws Exception {
        Path dir = Files.createTempDirectory("spacebench-mw-");
        Path csvA = Files.writeString(dir.resolve("a.csv"), get("/api/runs/" + a + "/samples.csv").body());
        Path csvB = Files.writeString(dir.resolve("b.csv"), get("/api/runs/" + b + "/samples.csv").body());
        Process python = new ProcessBuilder("python3", "src/test/python/mann_whitney.py", csvA.toString(), csvB.toString(), metric)
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(python.waitFor()).as(output).isZero();
        String[] parts = output.split(" ");
        return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1])};
    }

    @Test
    void theBuiltInCuaBaselineIsSummaryOnlyAndNotLikeForLike() throws Exception {
        HttpResponse<String> cuaResponse = get("/api/baselines/cua-0.15.0");
        assertThat(cuaResponse.statusCode()).as(cuaResponse.body()).isEqualTo(200);
        JsonNode cua = json(cuaResponse);
        assertThat(cua.has("hasSamples")).as(cuaResponse.body()).isTrue();
        assertThat(cua.get("hasSamples").asBoolean()).isFalse();
        assertThat(cua.get("note").asString()).isEqualTo("published figures, no raw samples");
        assertThat(cua.get("figures").get(0).get("p50Ns").asLong()).isEqualTo(878_000);

        JsonNode c = json(get("/api/compare?run=" + a + "&baseline=cua-0.15.0"));
        assertThat(c.get("rows")).hasSize(1);
        assertThat(c.get("rows").get(0).get("metric").asString()).isEqualTo("exec.sh_c");
        assertThat(c.get("rows").get(0).get("verdict").asString()).isEqualTo("not testable: summary only");
        assertThat(c.get("likeForLike").asBoolean()).isFalse();
        assertThat(c.get("warnings").toString()).contains("CPU differs").contains("Space kind differs");
        assertThat(get("/compare?run=" + a + "&baseline=cua-0.15.0").body()).contains("id=\"not-like-for-like\"");
    }

    @Test
    void baselinesFromARunAndFromAnImportedResultJson() throws Exception {
        HttpResponse<String> created = post("/api/baselines", "{\"name\":\"run-a\",\"runId\":" + a + "}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(json(created).get("hasSamples").asBoolean()).isTrue();
        assertThat(post("/api/baselines", "{\"name\":\"run-a\",\"runId\":" + a + "}").statusCode()).isEqualTo(400);
        HttpResponse<String> badName = post("/api/baselines", "{\"name\":\"Bad Name!\",\"runId\":" + a + "}");
        assertThat(json(badName).get("errors").get(0).get("field").asString()).isEqualTo("name");

        String resultJson = get("/api/runs/" + a + "/result.json").body();
        HttpResponse<String> imported = post("/api/baselines/import?name=imported-a", resultJson);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        assertThat(json(imported).get("hasSamples").asBoolean()).isFalse();
        JsonNode c = json(get("/api/compare?run=" + b + "&baseline=imported-a"));
        assertThat(row(c, "exec.noop").get("verdict").asString()).isEqualTo("not testable: summary only");
        // The host's virtualization travels with a run's facts and with an imported result.json.
        String expected = "Space: none (shares the host's kernel); host: " + hostVirtualizationFromCpuinfo();
        assertThat(environmentRow(c, "Virtualization").get("a").asString()).isEqualTo(expected);
        assertThat(environmentRow(c, "Virtualization").get("b").asString()).isEqualTo(expected);
        assertThat(environmentRow(c, "Virtualization").get("differs").asBoolean()).isFalse();
        JsonNode withSamples = json(get("/api/compare?run=" + b + "&baseline=run-a"));
        assertThat(row(withSamples, "exec.noop").get("pValue").isNumber()).isTrue();

        HttpResponse<String> notJson = post("/api/baselines/import?name=other", "{\"schema\":\"something else\"}");
        assertThat(json(notJson).get("errors").get(0).get("field").asString()).isEqualTo("body.schema");
    }

    @Test
    void theCheckPassesOrFailsAgainstTheCallersThreshold() throws Exception {
        post("/api/baselines", "{\"name\":\"check-a\",\"runId\":" + a + "}");
        JsonNode pass = json(get("/api/runs/" + b + "/check?baseline=check-a&threshold=1000"));
        assertThat(pass.get("verdict").asString()).isEqualTo("pass");
        assertThat(pass.get("metrics")).extracting(r -> r.get("metric").asString()).containsExactly("space.ready",
                "space.ready.create", "space.ready.agent", "space.ready.ping", "exec.noop", "exec.sh_c", "space.delete");
        JsonNode fail = json(get("/api/runs/" + b + "/check?baseline=check-a&threshold=0.0001"));
        assertThat(fail.get("verdict").asString()).isEqualTo("fail");
        JsonNode m = fail.get("metrics").get(0);
        assertThat(m.get("ratio").asDouble()).isCloseTo(m.get("runNs").asDouble() / m.get("baselineNs").asDouble(), within(1e-12));

        // No threshold: 1.10, as bench --baseline; each metric passes exactly when run / baseline ≤ 1.10.
        HttpResponse<String> byDefault = get("/api/runs/" + b + "/check?baseline=check-a");
        assertThat(byDefault.statusCode()).as(byDefault.body()).isEqualTo(200);
        JsonNode defaulted = json(byDefault);
        assertThat(defaulted.get("threshold").asDouble()).isEqualTo(1.10);
        boolean allPass = true;
        for (JsonNode metric : defaulted.get("metrics")) {
            boolean passes = metric.get("runNs").asDouble() <= 1.10 * metric.get("baselineNs").asDouble();
            assertThat(metric.get("pass").asBoolean()).as(metric.toString()).isEqualTo(passes);
            allPass &= passes;
        }
        assertThat(defaulted.get("verdict").asString()).isEqualTo(allPass ? "pass" : "fail");

        assertThat(field(get("/api/runs/" + b + "/check?baseline=check-a&threshold=-1"))).isEqualTo("threshold");
        assertThat(field(get("/api/runs/" + b + "/check?threshold=1.1"))).isEqualTo("baseline");
        assertThat(field(get("/api/runs/" + b + "/check?baseline=check-a&threshold=1.1&statistic=p42"))).isEqualTo("statistic");
        HttpResponse<String> unknown = get("/api/runs/" + b + "/check?baseline=nope&threshold=1.1");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("errors").get(0).get("field").asString()).isEqualTo("baseline");
    }

    @Test
    void bencherAndHdrHistogramExportsCarryTheFigures() throws Exception {
        JsonNode result = json(get("/api/runs/" + a + "/result.json"));
        JsonNode shc = null;
        for (JsonNode m : result.get("metrics")) {
            if (m.get("metric").asString().equals("exec.sh_c")) {
                shc = m;
            }
        }
        JsonNode bmf = json(get("/api/runs/" + a + "/bmf.json"));
        JsonNode latency = bmf.get("exec.sh_c").get("latency");
        assertThat(latency.get("value").asLong()).isEqualTo(shc.get("p50Ns").asLong());
        assertThat(latency.get("lower_value").asLong()).isEqualTo(shc.get("intervals").get("p50").get("lowerNs").asLong());
        assertThat(latency.get("upper_value").asLong()).isEqualTo(shc.get("intervals").get("p50").get("upperNs").asLong());

        HttpResponse<String> hlog = get("/api/runs/" + a + "/hlog/exec.sh_c.hlog");
        assertThat(hlog.statusCode()).isEqualTo(200);
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(hlog.body().getBytes(StandardCharsets.UTF_8)));
        Histogram histogram = (Histogram) reader.nextIntervalHistogram();
        assertThat(histogram.getTotalCount()).isEqualTo(30);
        // 3 significant digits: within 0.1% of the exact nearest-rank p50
        assertThat((double) histogram.getValueAtPercentile(50)).isCloseTo(shc.get("p50Ns").asDouble(),
                within(shc.get("p50Ns").asDouble() * 0.001 + 1));
        assertThat(get("/api/runs/" + a + "/hlog/exec.true.hlog").statusCode()).isEqualTo(404);
    }

    private static JsonNode row(JsonNode comparison, String metric) {
        for (JsonNode row : comparison.get("rows")) {
            if (row.get("metric").asString().equals(metric)) {
                return row;
            }
        }
        throw new AssertionError("no row for " + metric + " in " + comparison);
    }

    private static String field(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        return json(response).get("errors").get(0).get("field").asString();
    }
}
