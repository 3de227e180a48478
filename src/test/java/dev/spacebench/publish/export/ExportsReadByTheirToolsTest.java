package dev.spacebench.publish.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A real run's exports, read the way their users read them: the HdrHistogram log by HdrHistogram's
 * own {@code HistogramLogProcessor -i FILE} in a JVM of its own (no other flag), bmf.json parsed as
 * Bencher would. Every expected value is computed here from the run's samples.csv (nearest rank),
 * not by the app's formatters.
 */
class ExportsReadByTheirToolsTest extends AppTestSupport {

    private static final long FILE_BYTES = 1 << 20;

    @TempDir
    Path temp;

    @Test
    void hdrHistogramsProcessorAndBencherReadWhatTheSamplesSay() throws Exception {
        long id = json(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":200,"
                + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[{\"bytes\":" + FILE_BYTES + ",\"n\":9}],\"warmups\":0},"
                + "\"floor\":{\"enabled\":false}}}")).get("id").asLong();
        JsonNode run = awaitFinished(id, java.time.Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        Map<String, List<Long>> samples = measuredSamples(get("/api/runs/" + id + "/samples.csv").body());
        assertThat(samples.get("exec.noop")).hasSize(200);

        // HdrHistogram's processor, as docs/rest.md names it: java -cp HdrHistogram.jar ... -i exec.noop.hlog
        HttpResponse<String> hlog = get("/api/runs/" + id + "/hlog/exec.noop.hlog");
        assertThat(hlog.statusCode()).isEqualTo(200);
        Path file = Files.writeString(temp.resolve("exec.noop.hlog"), hlog.body());
        String processed = processor(file);
        Map<Double, double[]> rows = HistogramLogTest.percentileRows(List.of(processed.split("\n")));
        long[] sorted = samples.get("exec.noop").stream().mapToLong(Long::longValue).sorted().toArray();
        for (double percentile : new double[] {0.5, 0.9, 0.95}) {
            double[] row = rows.get(percentile);
            assertThat(row).as("the processor's row for %s in:\n%s", percentile, processed).isNotNull();
            long exact = sorted[(int) Math.ceil(percentile * sorted.length) - 1];
            // printed in ms with 3 decimals; the histogram keeps 3 significant digits
            assertThat(row[0] * 1e6).as("value at %s", percentile).isCloseTo(exact, within(exact * 0.001 + 1000));
        }
        assertThat(rows.values().stream().mapToDouble(row -> row[1]).max().orElseThrow()).isEqualTo(sorted.length);

        // bmf.json: latency in ns (p50) for every metric; MiB/s under its own measure for files only.
        JsonNode bmf = json(get("/api/runs/" + id + "/bmf.json"));
        JsonNode noop = bmf.get("exec.noop");
        assertThat(names(noop)).containsExactly("latency");
        assertThat(noop.get("latency").get("value").asDouble()).isEqualTo(p50(samples.get("exec.noop")));
        List<String> files = new ArrayList<>();
        bmf.propertyNames().forEach(name -> {
            if (name.startsWith("file.")) {
                files.add(name);
            }
        });
        assertThat(files).as("file metrics in bmf.json").isNotEmpty();
        for (String metric : files) {
            JsonNode measures = bmf.get(metric);
            assertThat(names(measures)).as(metric).containsExactlyInAnyOrder("latency", "mib-per-second");
            double p50 = p50(samples.get(metric));
            assertThat(measures.get("latency").get("value").asDouble()).as(metric).isEqualTo(p50);
            double mibPerSecond = FILE_BYTES / 1048576.0 / (p50 / 1e9);
            assertThat(measures.get("mib-per-second").get("value").asDouble()).as(metric)
                    .isCloseTo(mibPerSecond, within(mibPerSecond * 1e-9));
        }
        assertThat(bmf.toString()).as("Bencher's built-in throughput is operations per second").doesNotContain("\"throughput\"");
    }

    /** {@code java -cp HdrHistogram.jar org.HdrHistogram.HistogramLogProcessor -i FILE} in a JVM of its own: its stdout. */
    private static String processor(Path file) throws Exception {
        Path jar = Path.of(HistogramLogProcessor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", jar.toString(), HistogramLogProcessor.class.getName(),
                "-i", file.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the processor ended").isTrue();
        assertThat(process.exitValue()).as("the processor's exit status; its output:\n%s", out).isZero();
        return out;
    }

    /** metric → ns of its measured samples that succeeded, from samples.csv (metric,iteration,phase,ns,bytes,ok,...). */
    private static Map<String, List<Long>> measuredSamples(String csv) {
        String[] lines = csv.split("\n");
        List<String> header = List.of(lines[0].strip().split(","));
        int metric = header.indexOf("metric");
        int phase = header.indexOf("phase");
        int ns = header.indexOf("ns");
        int ok = header.indexOf("ok");
        Map<String, List<Long>> samples = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String[] cells = lines[i].strip().split(",", -1);
            if (cells[phase].equals("measured") && cells[ok].equals("true")) {
                samples.computeIfAbsent(cells[metric], m -> new ArrayList<>()).add(Long.parseLong(cells[ns]));
            }
        }
        return samples;
    }

    /** Nearest rank: the ⌈n/2⌉-th smallest. */
    private static double p50(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[(sorted.length + 1) / 2 - 1];
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
