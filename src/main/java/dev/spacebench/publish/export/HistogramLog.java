package dev.spacebench.publish.export;

import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * One metric's measured samples as an HdrHistogram log (format 1.3), one log per metric, readable by
 * HdrHistogram's own {@code HistogramLogProcessor -i FILE} with no other flag. One interval covering
 * the whole metric; values are recorded in ns, and the log's max-value column is in ms (unit ratio
 * 10^6). The histogram is untagged: the processor reads only untagged histograms unless given
 * {@code -tag}, and fails on a log that holds tagged ones only.
 */
@Component
@Order(5)
public class HistogramLog implements RunExporter {

    public static final double NS_PER_MS = 1e6;

    private final RunService runs;

    public HistogramLog(RunService runs) {
        this.runs = runs;
    }

    @Override
    public String id() {
        return "hlog";
    }

    @Override
    public MediaType mediaType() {
        return MediaType.parseMediaType("text/plain;charset=UTF-8");
    }

    @Override
    public String title() {
        return "HdrHistogram log";
    }

    @Override
    public String description() {
        return "HdrHistogram logs, one per metric (HistogramLogProcessor reads them)";
    }

    /** One file per metric with a stored histogram, at {@code hlog/METRIC.hlog}. */
    @Override
    public List<ExportFile> files(long runId, List<MetricResult> results) {
        return results.stream().filter(r -> r.getHistogram() != null)
                .map(r -> new ExportFile(id(), r.getMetric() + ".hlog", "hlog/" + r.getMetric() + ".hlog", r.getMetric()))
                .toList();
    }

    /** The interval covers the run from its start to its end (to now while it runs). */
    @Override
    public void write(long runId, ExportFile file, OutputStream out) throws IOException {
        Run run = runs.get(runId);
        MetricResult result = runs.results(runId).stream()
                .filter(r -> r.getMetric().equals(file.metric()) && r.getHistogram() != null).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("run " + runId + " has no histogram for '" + file.metric() + "'"));
        Instant start = run.getStartedAt() == null ? run.getCreatedAt() : run.getStartedAt();
        Instant end = run.getFinishedAt() == null ? Instant.now() : run.getFinishedAt();
        double seconds = Math.max(0.001, Duration.between(start, end).toMillis() / 1000.0);
        out.write(write(file.metric(), result.getHistogram(), start, seconds).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param encoded the stored base64 histogram
     * @param start when the run started (the log's base time)
     * @param seconds length of the interval in s (the run's duration)
     */
    public static String write(dev.spacebench.run.Run run, dev.spacebench.run.MetricResult result) {
        // The log's interval is the run's: started (or created) to finished (or now, while it runs).
        Instant start = run.getStartedAt() == null ? run.getCreatedAt() : run.getStartedAt();
        Instant end = run.getFinishedAt() == null ? Instant.now() : run.getFinishedAt();
        double seconds = Math.max(0.001, java.time.Duration.between(start, end).toMillis() / 1000.0);
        return write(result.getMetric(), result.getHistogram(), start, seconds);
    }

    /**
     * As {@link #write(dev.spacebench.run.Run, dev.spacebench.run.MetricResult)}, with the interval given.
     */
    public static String write(String metric, String encoded, Instant start, double seconds) {
        Histogram histogram = Histograms.decode(encoded);
        histogram.setTag(null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("Spacebench " + metric + ": measured round trips in ns");
            writer.outputLogFormatVersion();
            writer.outputStartTime(start.toEpochMilli());
            writer.setBaseTime(start.toEpochMilli());
            writer.outputLegend();
            writer.outputIntervalHistogram(0, seconds, histogram, NS_PER_MS);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
