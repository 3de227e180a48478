package dev.spacebench.run;

import dev.spacebench.metric.InEntry;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.stats.PairedRatio;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A comparison run's figures side by side (issue 29): for each exec metric, each entry's p50 and
 * its ratio to the first entry with a 95% confidence interval from the paired block medians
 * ({@link PairedRatio#byBlock}, the one paired-ratio computation: block i of the entry against block
 * i of the first, taken in the same round of the interleaved schedule). From the run's stored
 * figures and block medians ({@code run.samples.BlockMedians}); only blocks both entries finished are paired.
 */
public final class ComparisonFigures {

    private ComparisonFigures() {
    }

    /**
     * @param entries the run's entries in order: label, kind and Space (token hidden)
     * @param metrics one row per exec metric of the plan, in plan order
     * @param method how the ratio and its interval are computed, in words
     * @param level the interval's confidence level
     */
    public record Figures(List<CompareEntry> entries, List<Row> metrics, String method, double level) {
    }

    /**
     * @param metric entry 1's id, e.g. {@code exec.noop}
     * @param label how pages name it
     * @param entries one cell per entry, in entry order
     */
    public record Row(String metric, String label, List<Cell> entries) {
    }

    /**
     * One entry's figures of a metric.
     *
     * @param id the stored id of its samples ({@code entry.2.exec.noop})
     * @param n measured ok samples
     * @param p50Ns their p50, nearest rank; null without samples
     * @param ratio exp of the Hodges–Lehmann estimate of the log-ratio of its block medians to the first entry's; 1 for the
     *     first entry; null when no block pair exists
     * @param lower lower end of the 95% interval (0 when the blocks are too few to bound it)
     * @param upper upper end (+∞ when unbounded: written as null in JSON)
     * @param blocks block pairs the ratio is computed from
     * @param includesOne whether the interval holds 1 (the run cannot tell this entry from the first)
     */
    public record Cell(String label, String id, int n, Long p50Ns, Double ratio, Double lower, Double upper, int blocks,
                       Boolean includesOne) {
    }

    /**
     * @param run the run
     * @param results its stored figures (entry 1's under the plain ids, entry e's under {@code entry.e.…})
     * @param blocks its block medians: metric id → (block → median ns)
     * @return the figures if {@code run} is a comparison run, else null
     */
    public static Figures of(Run run, List<MetricResult> results, Map<String, SortedMap<Integer, Long>> blocks) {
        if (!run.isComparison()) {
            return null;
        }
        List<CompareEntry> entries = run.getCompareEntries().stream()
                .map(e -> new CompareEntry(e.label(), e.space().redacted(), e.channels())).toList();
        List<Row> rows = new ArrayList<>();
        for (Metric metric : PlanMetrics.exec(run.getPlan())) {
            SortedMap<Integer, Long> first = blocks.getOrDefault(metric.id(), new TreeMap<>());
            List<Cell> cells = new ArrayList<>();
            for (int e = 1; e <= entries.size(); e++) {
                String id = InEntry.id(metric.id(), e);
                cells.add(cell(entries.get(e - 1).label(), id, results, first, blocks.getOrDefault(id, new TreeMap<>()), e == 1));
            }
            rows.add(new Row(metric.id(), metric.label(), cells));
        }
        return new Figures(entries, rows, PairedRatio.METHOD, PairedRatio.DEFAULT_LEVEL);
    }

    private static Cell cell(String label, String id, List<MetricResult> results, SortedMap<Integer, Long> first,
                             SortedMap<Integer, Long> mine, boolean isFirst) {
        MetricResult result = results.stream().filter(r -> r.getMetric().equals(id)).findFirst().orElse(null);
        int n = result == null ? 0 : result.getN();
        Long p50 = n == 0 ? null : result.getP50Ns();
        if (isFirst) {
            return new Cell(label, id, n, p50, p50 == null ? null : 1.0, null, null, 0, null);
        }
        return PairedRatio.byBlock(mine, first)
                .map(ratio -> new Cell(label, id, n, p50, ratio.ratio(), ratio.lower(),
                        Double.isFinite(ratio.upper()) ? ratio.upper() : null, ratio.blocks(), ratio.includesOne()))
                .orElse(new Cell(label, id, n, p50, null, null, null, 0, null));
    }
}
