package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.floor.HyperfineFloor;
import dev.spacebench.run.samples.RunSampleRepository;
import dev.spacebench.run.samples.SortedSamples;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/** A real run against a real process Space, from POST to published page. */
class EndToEndTest extends AppTestSupport {

    private static final String SMALL_PLAN = """
            {"space": {"kind": "process"},
             "plan": {"spaces": 2,
                      "exec": {"n": 20, "warmups": 2},
                      "files": {"sizes": [{"bytes": 1048576, "n": 2}, {"bytes": 4194304, "n": 2}], "warmups": 1}}}""";

    @Autowired
    RunSampleRepository samples;
    @Autowired
    SortedSamples sorted;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void smallPlanRunsEndToEndAndPublishesConsistentFigures() throws Exception {
        HttpResponse<String> created = post("/api/runs", SMALL_PLAN);
        assertThat(created.statusCode()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(created.headers().firstValue("Location")).hasValue("/api/runs/" + id);

        JsonNode run = awaitFinished(id, Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(run.get("progress").get("percent").asDouble()).isEqualTo(100.0);

        // space.ready 2 + exec 3 × (2 + 20) + files 2 sizes × (1 + 2) iterations × (upload + download) + space.delete 2
        // + ready's three parts × 2 Spaces
        // + floor: timer 1, spawn true and sh -c true 20 each, bare gRPC ping 20, hyperfine true and sh -c true 20 each where installed
        boolean hyperfine = HyperfineFloor.onPath("hyperfine", System.getenv("PATH")).isPresent();
        long expectedSamples = 2 + 3 * 22 + 2 * 3 * 2 + 2 + 3 * 2 + 1 + 3 * 20 + (hyperfine ? 40 : 0);
        assertThat(samples.countByRunId(id)).isEqualTo(expectedSamples);

        JsonNode result = json(get("/api/runs/" + id + "/result.json"));
        assertThat(result.get("schema").asString()).isEqualTo("spacebench.result/v1");
        assertThat(result.get("run").get("samples").asLong()).isEqualTo(expectedSamples);
        Map<String, JsonNode> metrics = new HashMap<>();
        result.get("metrics").forEach(m -> metrics.put(m.get("metric").asString(), m));
        assertThat(metrics).containsKeys("floor.timer", "floor.spawn.true", "floor.spawn.sh_c", "floor.grpc.noop", "space.ready", "exec.noop", "exec.true", "exec.sh_c", "file.upload.1MiB",
                "file.download.1MiB", "file.upload.4MiB", "file.download.4MiB", "space.delete");
        assertThat(metrics.get("file.upload.1MiB").get("lane").asString()).isEqualTo("stream");
        assertThat(metrics.get("file.upload.4MiB").get("lane").asString()).isEqualTo("bulk");
        assertThat(metrics.get("exec.true").get("n").asInt()).isEqualTo(20);
        assertThat(metrics.get("space.ready").get("n").asInt()).as("one ready sample per Space created").isEqualTo(2);
        assertThat(metrics.get("space.delete").get("n").asInt()).isEqualTo(2);
        assertThat(metrics.get("exec.true").get("warmups").asInt()).isEqualTo(2);
        // Before each Space's timed start the app waited until its own JIT compilers and GC were idle; the Space facts say so.
        assertThat(result.get("environment").get("space").get("app's JIT and GC before each Space's start").asString())
                .startsWith("waited until idle, outside the timed ready: 2 Spaces, ");
        // And before each metric's measured loop (3 exec metrics, 2 file sizes), after its warm-ups.
        assertThat(result.get("environment").get("space").get("app's JIT and GC before each metric's measured loop").asString())
                .startsWith("waited until idle, outside the timed loops: 5 metrics, ");

        assertSplitIsPublished(id, metrics);
        assertPageShowsResultJsonFigures(id, metrics);
        assertPercentilesRecomputeFromCsv(id, metrics);

        String markdown = get("/api/runs/" + id + "/page.md").body();
        assertThat(markdown).contains(result.get("run").get("headline").asString());
        assertThat(markdown).contains("app's JIT and GC before each metric's measured loop");
        Matcher shc = Pattern.compile("\\| sh -c true \\| ([^\\[|]+) \\[").matcher(markdown);
        assertThat(shc.find()).as(markdown).isTrue();
        assertDisplays(shc.group(1), metrics.get("exec.sh_c").get("p50Ns").asLong());

        assertPlotsAreServed(id, markdown);
        assertStoredCopiesMatchTheRows(id, expectedSamples);
        assertPythonRecomputesEveryFigure(id, metrics.size());
        assertNothingLeftBehind();
    }

    /**
     * The copies stored for speed (samples.csv's text in pieces, each metric's sorted samples)
     * say what the sample rows say, read here with plain SQL and formatted here.
     */
    private void assertStoredCopiesMatchTheRows(long id, long expectedSamples) throws Exception {
        assertThat(jdbc.queryForObject("select sum(row_count) from sample_csv_piece where run_id = ?", Long.class, id))
                .as("every row in a stored piece once the run ended").isEqualTo(expectedSamples);
        StringBuilder expected = new StringBuilder("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry\n");
        jdbc.query("select metric, iteration, phase, ns, bytes, ok, error, agent_ns, level, space_index, block, seq, entry from sample "
                + "where run_id = ? order by id", rs -> {
                    String error = rs.getString(7);
                    expected.append(rs.getString(1)).append(',').append(rs.getInt(2)).append(',').append(rs.getString(3))
                            .append(',').append(rs.getLong(4)).append(',').append(rs.getLong(5)).append(',')
                            .append(rs.getBoolean(6)).append(',')
                            .append(error == null ? "" : "\"" + error.replace("\"", "\"\"") + "\"").append(',')
                            .append(rs.getObject(8) == null ? "" : rs.getObject(8).toString()).append(',')
                            .append(rs.getObject(9) == null ? "" : rs.getObject(9).toString()).append(',')
                            .append(rs.getObject(10) == null ? "" : rs.getObject(10).toString()).append(',')
                            .append(dev.spacebench.run.ExpectedChannel.of(rs.getString(1))).append(',')
                            .append(rs.getObject(11) == null ? "" : rs.getObject(11).toString()).append(',')
                            .append(rs.getObject(12) == null ? "" : rs.getObject(12).toString()).append(',')
                            .append(rs.getObject(13) == null ? "" : rs.getObject(13).toString()).append('\n');
                }, id);
        assertThat(get("/api/runs/" + id + "/samples.csv").body()).isEqualTo(expected.toString());

        Map<String, long[]> stored = sorted.read(id);
        List<String> measured = jdbc.queryForList("select distinct metric from sample where run_id = ? and phase = 'measured' "
                + "and ok = true", String.class, id);
        assertThat(stored.keySet()).containsExactlyInAnyOrderElementsOf(measured);
        stored.forEach((metric, ns) -> assertThat(ns).as(metric).containsExactly(jdbc.queryForList("select ns from sample "
                + "where run_id = ? and metric = ? and phase = 'measured' and ok = true order by ns", Long.class, id, metric)
                .stream().mapToLong(Long::longValue).toArray()));
    }

    private void assertPlotsAreServed(long id, String markdown) throws Exception {
        for (String plot : new String[] {"exec.noop", "exec.true", "exec.sh_c", "throughput"}) {
            HttpResponse<String> svg = get("/api/runs/" + id + "/plots/" + plot + ".svg");
            assertThat(svg.statusCode()).as(plot).isEqualTo(200);
            assertThat(svg.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("image/svg+xml"));
            assertThat(svg.body()).startsWith("<svg");
            // page.md links relative to itself, so they work where it is served and in an exported folder.
            assertThat(markdown).contains("](plots/" + plot + ".svg)");
        }
        String html = get("/runs/" + id).body();
        assertThat(html).contains("id=\"plot-exec.true\"").contains("id=\"plot-throughput\"");
        HttpResponse<String> missing = get("/api/runs/" + id + "/plots/exec.nothing.svg");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json(missing).get("detail").asString()).contains("exec.nothing");
    }

    /** An independent implementation (Python, standard library only) must land on the same figures to the ns. */
    private void assertPythonRecomputesEveryFigure(long id, int metricCount) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory("spacebench-check-");
        java.nio.file.Path csv = Files.writeString(dir.resolve("samples.csv"), get("/api/runs/" + id + "/samples.csv").body());
        java.nio.file.Path json = Files.writeString(dir.resolve("result.json"), get("/api/runs/" + id + "/result.json").body());
        Process python = new ProcessBuilder("python3", "src/test/python/check_result.py", csv.toString(), json.toString())
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes());
        assertThat(python.waitFor()).as(output).isZero();
        // every metric × (n, split, min, slowest, and per percentile: the value and both CI ends) + the metric-set check
        assertThat(output.strip()).isEqualTo((metricCount * (4 + 3 * 3) + 1) + " passed, 0 failed");
    }

    /**
     * The split (issue 10): exec true and sh -c true carry the agent's time, the no-op does not;
     * the page's split table shows result.json's figures; ready's parts add up to ready.
     */
    private void assertSplitIsPublished(long id, Map<String, JsonNode> metrics) throws Exception {
        assertThat(metrics.get("exec.noop").get("split").isNull()).isTrue();
        String html = get("/runs/" + id).body();
        for (String metric : List.of("exec.true", "exec.sh_c")) {
            JsonNode split = metrics.get(metric).get("split");
            assertThat(split.get("roundTripP50Ns").asLong()).isEqualTo(metrics.get(metric).get("p50Ns").asLong());
            assertThat(split.get("agentP50Ns").asLong()).isPositive().isLessThan(split.get("roundTripP50Ns").asLong());
            for (String part : List.of("roundTrip", "agent", "rest")) {
                Matcher cell = Pattern.compile("data-split=\"" + Pattern.quote(metric) + "\" data-part=\"" + part
                        + "\" data-ns=\"(\\d+)\">([^<]+)<").matcher(html);
                assertThat(cell.find()).as(metric + " " + part).isTrue();
                assertThat(Long.parseLong(cell.group(1))).isEqualTo(split.get(part + "P50Ns").asLong());
                assertDisplays(cell.group(2), Long.parseLong(cell.group(1)));
            }
        }
        // One harness sentence per exec metric against its floor: hyperfine's spawn plus the bare ping where hyperfine
        // is installed, else the host spawn plus the bare ping.
        boolean hyperfine = HyperfineFloor.onPath("hyperfine", System.getenv("PATH")).isPresent();
        for (String metric : List.of("exec.true", "exec.sh_c")) {
            Matcher added = Pattern.compile("<li data-added=\"" + Pattern.quote(metric) + "\"[^>]*>([^<]+)<").matcher(html);
            assertThat(added.find()).as(metric + "'s harness sentence").isTrue();
            assertThat(added.group(1)).contains(hyperfine ? "hyperfine" : "on the host").contains("bare gRPC ping");
            assertThat(added.find()).as("one sentence for " + metric).isFalse();
        }
        assertThat(html).contains("Space ready, in parts");
        // What the tail is made of (issue 10, section 3): a sentence per exec metric with its tail's size from result.json
        // (check_result.py recomputes the figures), the no-op's against the bare ping's, and the host JVM's GC in the loops.
        for (String metric : List.of("exec.true", "exec.sh_c")) {
            int tailN = metrics.get(metric).get("split").get("tailN").asInt();
            Matcher line = Pattern.compile("<li data-tail=\"" + Pattern.quote(metric) + "\">([^<]+)<").matcher(html);
            assertThat(line.find()).as(metric).isTrue();
            assertThat(line.group(1)).contains("the " + tailN + " round trip" + (tailN == 1 ? " " : "s "));
        }
        assertThat(html).contains("<li data-tail=\"exec.noop\">no-op: its p99 is ");
        JsonNode hostGc = json(get("/api/runs/" + id + "/result.json")).get("environment").get("hostGcInLoops");
        assertThat(hostGc.get("count").asLong()).isNotNegative();
        assertThat(html).contains("Host JVM GC during the loops", "<li data-tail=\"host-gc\">"
                + (hostGc.get("count").asLong() == 0 ? "No garbage collection of the JVM that times the round trips (the run&#39;s driver)"
                        : "The JVM that times the round trips (the run&#39;s driver) collected garbage"));
        // samples.csv: metric,iteration,phase,ns,…; Space rows have no error text, so a plain split is safe.
        List<String[]> rows = get("/api/runs/" + id + "/samples.csv").body().lines().skip(1).map(l -> l.split(",")).toList();
        List<Long> readyParts = rows.stream().filter(r -> r[0].startsWith("space.ready.")).map(r -> Long.parseLong(r[3])).toList();
        long ready = rows.stream().filter(r -> r[0].equals("space.ready")).mapToLong(r -> Long.parseLong(r[3])).sum();
        assertThat(readyParts).hasSize(6);
        assertThat(readyParts.stream().mapToLong(Long::longValue).sum()).isEqualTo(ready);
    }

    private void assertPageShowsResultJsonFigures(long id, Map<String, JsonNode> metrics) throws Exception {
        HttpResponse<String> page = get("/runs/" + id);
        assertThat(page.statusCode()).isEqualTo(200);
        String html = page.body();
        assertThat(html).contains("How long does a command round trip");
        Matcher cells = Pattern.compile("data-metric=\"([^\"]+)\" data-stat=\"(p50|p95|p99|slowest)\" data-ns=\"(\\d+)\">([^<]+)<")
                .matcher(html);
        Map<String, String> json = Map.of("p50", "p50Ns", "p95", "p95Ns", "p99", "p99Ns", "slowest", "slowestNs");
        int checked = 0;
        while (cells.find()) {
            JsonNode metric = metrics.get(cells.group(1));
            long ns = Long.parseLong(cells.group(3));
            assertThat(ns).as(cells.group(1) + " " + cells.group(2)).isEqualTo(metric.get(json.get(cells.group(2))).asLong());
            assertDisplays(cells.group(4), ns);
            checked++;
        }
        // exec 3 × 4 figures + files 2 × (upload + download p50) + space ready, its 3 parts, delete p50 + floor rows × (p50, p99)
        long floorRows = metrics.keySet().stream().filter(m -> m.startsWith("floor.")).count();
        assertThat(checked).isEqualTo(12 + 4 + 5 + 2 * floorRows);
    }

    /**
     * A duration as the page shows it stands for {@code ns}: below 1 µs exactly "N ns", else a
     * value from 1 to 999 in the largest unit that keeps it at least 1, with three significant
     * digits, within half a unit of its last digit of {@code ns}.
     */
    static void assertDisplays(String text, long ns) {
        Matcher m = Pattern.compile("(\\d+(?:\\.(\\d+))?) (ns|µs|ms|s)").matcher(text);
        assertThat(m.matches()).as("a duration: '%s'", text).isTrue();
        if (ns < 1_000) {
            assertThat(text).isEqualTo(ns + " ns");
            return;
        }
        double scale = Map.of("µs", 1e3, "ms", 1e6, "s", 1e9).get(m.group(3));
        java.math.BigDecimal value = new java.math.BigDecimal(m.group(1));
        int decimals = m.group(2) == null ? 0 : m.group(2).length();
        assertThat(value.precision()).as("significant digits of '%s'", text).isEqualTo(3);
        assertThat(value.doubleValue()).as("'%s' in range for its unit", text).isBetween(1.0, 999.0);
        double halfStep = 0.5 * Math.pow(10, -decimals) * scale;
        assertThat(Math.abs(value.doubleValue() * scale - ns)).as("'%s' stands for %d ns", text, ns).isLessThanOrEqualTo(halfStep * (1 + 1e-9));
    }

    private void assertPercentilesRecomputeFromCsv(long id, Map<String, JsonNode> metrics) throws Exception {
        String csv = get("/api/runs/" + id + "/samples.csv").body();
        List<String> lines = csv.lines().toList();
        assertThat(lines.get(0)).isEqualTo("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry");
        Map<String, List<Long>> measured = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f[2].equals("measured") && f[5].equals("true")) {
                measured.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Long.parseLong(f[3]));
            }
        }
        for (Map.Entry<String, List<Long>> entry : measured.entrySet()) {
            long[] sorted = entry.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
            JsonNode published = metrics.get(entry.getKey());
            int n = sorted.length;
            assertThat(published.get("n").asInt()).isEqualTo(n);
            // nearest rank, as the page states: x[ceil(p/100 · n)]
            assertThat(published.get("p50Ns").asLong()).as(entry.getKey()).isEqualTo(sorted[(int) Math.ceil(0.50 * n) - 1]);
            assertThat(published.get("p95Ns").asLong()).isEqualTo(sorted[(int) Math.ceil(0.95 * n) - 1]);
            assertThat(published.get("p99Ns").asLong()).isEqualTo(sorted[(int) Math.ceil(0.99 * n) - 1]);
            assertThat(published.get("slowestNs").asLong()).isEqualTo(sorted[n - 1]);
            assertThat(published.get("minNs").asLong()).isEqualTo(sorted[0]);
            if (published.get("bytes").asLong() > 0) {
                double mibs = published.get("bytes").asLong() / 1048576.0 / (published.get("p50Ns").asLong() / 1e9);
                assertThat(published.get("mibPerSecond").asDouble()).isEqualTo(mibs);
            }
        }
        assertThat(measured).hasSize(metrics.size());
    }

    private void assertNothingLeftBehind() throws Exception {
        try (Stream<java.nio.file.Path> left = Files.list(SPACES)) {
            assertThat(left.toList()).as("Space directories left behind").isEmpty();
        }
        List<String> agents = ProcessHandle.allProcesses()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(cmd -> cmd.contains(SPACES.toString()))
                .toList();
        assertThat(agents).as("agent processes left behind").isEmpty();
    }

}
