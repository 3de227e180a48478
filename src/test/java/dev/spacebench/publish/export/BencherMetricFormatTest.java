package dev.spacebench.publish.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.PercentileInterval;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bmf.json: latency in ns under Bencher's built-in measure; MiB/s under a measure of its own. */
class BencherMetricFormatTest {

    @Test
    void fileThroughputIsPublishedAsMibPerSecondNotAsBenchersOperationsPerSecond() {
        long bytes = 16L << 20;
        MetricResult upload = new MetricResult(1L, "file.upload.16MiB", 0, bytes, "bulk", 10, 1, 0,
                40_000_000L, 50_000_000L, 60_000_000L, 70_000_000L, 80_000_000L, 5e7, 1e6, null, null);
        MetricResult noop = new MetricResult(1L, "exec.noop", 1, 0, null, 300, 5, 0,
                100_000L, 120_000L, 150_000L, 200_000L, 300_000L, 1.3e5, 1e4, null, null);
        PercentileInterval ci = new PercentileInterval(40_000_000L, 64_000_000L, 2, 9, true, true, 0.98, 0.95);

        Map<String, Map<String, Map<String, Double>>> bmf = BencherMetricFormat.of(List.of(upload, noop),
                r -> Map.of("p50", ci));

        Map<String, Map<String, Double>> file = bmf.get("file.upload.16MiB");
        assertThat(file).containsOnlyKeys("latency", "mib-per-second");
        // 16 MiB in 50 ms = 320 MiB/s; bounded by 16 MiB over 64 ms (250) and over 40 ms (400)
        assertThat(file.get("mib-per-second").get("value")).isCloseTo(320.0, within(1e-9));
        assertThat(file.get("mib-per-second").get("lower_value")).isCloseTo(250.0, within(1e-9));
        assertThat(file.get("mib-per-second").get("upper_value")).isCloseTo(400.0, within(1e-9));
        assertThat(file.get("latency").get("value")).isEqualTo(50_000_000.0);
        assertThat(bmf.get("exec.noop")).containsOnlyKeys("latency");
    }
}
