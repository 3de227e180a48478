package dev.spacebench.publish.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.stats.Histograms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exported log, read by HdrHistogram's own HistogramLogProcessor with no flag but its input and output. */
class HistogramLogTest {

    @TempDir
    Path temp;

    @Test
    void hdrHistogramsOwnProcessorReadsTheLogAndFindsTheSamplesPercentiles() throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        long[] samples = new long[777];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = 40_000 + random.nextLong(5_000_000);
        }
        String log = HistogramLog.write("exec.noop", Histograms.encode(Histograms.of(samples)),
                Instant.parse("2026-11-30T10:00:00Z"), 12.5);
        Path file = Files.writeString(temp.resolve("exec.noop.hlog"), log);
        Path out = temp.resolve("processed");

        // run() in this thread, so that a failure inside the processor fails the test
        new HistogramLogProcessor(new String[] {"-i", file.toString(), "-o", out.toString()}).run();

        Map<Double, double[]> rows = percentileRows(Files.readAllLines(Path.of(out + ".hgrm")));
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        for (double percentile : new double[] {0.5, 0.9, 0.95}) {
            double[] row = rows.get(percentile);
            assertThat(row).as("row for %s", percentile).isNotNull();
            long exact = sorted[(int) Math.ceil(percentile * sorted.length) - 1];
            // the processor prints ms; the histogram keeps 3 significant digits (within 0.1%)
            assertThat(row[0] * 1e6).as("value at %s", percentile).isCloseTo(exact, within(exact * 0.001 + 1000));
        }
        assertThat(rows.values().stream().mapToDouble(row -> row[1]).max().orElseThrow()).isEqualTo(samples.length);
        assertThat(log).doesNotContain("Tag=");
    }

    /** percentile → {value in ms, total count} from the processor's percentile table (a .hgrm file or its stdout). */
    static Map<Double, double[]> percentileRows(Iterable<String> lines) {
        Map<Double, double[]> rows = new HashMap<>();
        for (String line : lines) {
            String[] cells = line.strip().split("\\s+");
            if (cells.length == 4 && !line.startsWith("#") && Character.isDigit(cells[0].charAt(0))) {
                rows.put(Double.parseDouble(cells[1]), new double[] {Double.parseDouble(cells[0]), Double.parseDouble(cells[2])});
            }
        }
        return rows;
    }
}
