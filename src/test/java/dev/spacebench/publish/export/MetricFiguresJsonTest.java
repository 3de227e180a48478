package dev.spacebench.publish.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.stats.PercentileInterval;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * result.json's per-metric figures are grouped on the Java side (counts, summary, sweep level) but
 * written flat, with the keys and order schema v1 has always had: the same bytes as the flat record
 * of 23 components they replaced, for a sweep metric (every field set) and a plain one (the level's
 * fields null).
 */
class MetricFiguresJsonTest {

    /** The record as it was before the grouping, kept here as the oracle of the written shape. */
    record Flat(String metric, String kind, long bytes, String lane, int n, int warmups, int failures,
                Long minNs, Long p50Ns, Long p95Ns, Long p99Ns, Long slowestNs, Double meanNs, Double stddevNs,
                Double mibPerSecond, Map<String, PercentileInterval> intervals, String histogram, ResultDocument.Split split,
                Integer level, Long fastestSpaceP50Ns, Long slowestSpaceP50Ns, Double perSecond, Long wallNs) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aSweepMetricIsWrittenFlatInTheSchemasOrder() {
        ResultDocument.Split split = new ResultDocument.Split(10L, 6L, 4L, 30L, 2, 7L, 5L, 40L, 9L, 31L);
        ResultDocument.MetricFigures grouped = new ResultDocument.MetricFigures("sweep.4.exec.sh_c", "exec", 0, "grpc",
                new ResultDocument.Counts(80, 2, 1), new ResultDocument.Summary(5L, 10L, 20L, 30L, 40L, 12.5, 3.25, null),
                Map.of(), "HISTO", split, new ResultDocument.LevelFigures(4, 9L, 11L, 1234.5, 99L));
        Flat flat = new Flat("sweep.4.exec.sh_c", "exec", 0, "grpc", 80, 2, 1, 5L, 10L, 20L, 30L, 40L, 12.5, 3.25, null, Map.of(),
                "HISTO", split, 4, 9L, 11L, 1234.5, 99L);
        assertThat(JSON.writeValueAsString(grouped)).isEqualTo(JSON.writeValueAsString(flat));
        List<String> keys = List.copyOf(JSON.readTree(JSON.writeValueAsString(grouped)).propertyNames());
        assertThat(keys).containsExactly("metric", "kind", "bytes", "lane", "n", "warmups", "failures", "minNs", "p50Ns", "p95Ns",
                "p99Ns", "slowestNs", "meanNs", "stddevNs", "mibPerSecond", "intervals", "histogram", "split", "level",
                "fastestSpaceP50Ns", "slowestSpaceP50Ns", "perSecond", "wallNs");
    }

    @Test
    void aPlainMetricWritesItsLevelFieldsAsNull() {
        ResultDocument.MetricFigures grouped = new ResultDocument.MetricFigures("file.upload.1MiB", "upload", 1 << 20, "bulk",
                new ResultDocument.Counts(3, 0, 0), new ResultDocument.Summary(1L, 2L, 3L, 4L, 5L, 2.0, 1.0, 500.0),
                Map.of(), "H", null, new ResultDocument.LevelFigures(null, null, null, null, null));
        Flat flat = new Flat("file.upload.1MiB", "upload", 1 << 20, "bulk", 3, 0, 0, 1L, 2L, 3L, 4L, 5L, 2.0, 1.0, 500.0, Map.of(),
                "H", null, null, null, null, null, null);
        String written = JSON.writeValueAsString(grouped);
        assertThat(written).isEqualTo(JSON.writeValueAsString(flat));
        JsonNode tree = JSON.readTree(written);
        assertThat(tree.get("level").isNull()).isTrue();
        assertThat(tree.get("wallNs").isNull()).isTrue();
    }
}
