package dev.spacebench.publish.export;

import dev.spacebench.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * One metric's measured samples as an HdrHistogram log (format 1.3), one log per metric, readable by
 * HdrHistogram's own {@code HistogramLogProcessor -i FILE} with no other flag. One interval covering
 * the whole metric; values are recorded in ns, and the log's max-value column is in ms (unit ratio
 * 10^6). The histogram is untagged: the processor reads only untagged histograms unless given
 * {@code -tag}, and fails on a log that holds tagged ones only.
 */
public final class HistogramLog {

    public static final double NS_PER_MS = 1e6;

    private HistogramLog() {}

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
