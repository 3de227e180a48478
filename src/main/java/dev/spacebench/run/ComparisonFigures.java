package dev.spacebench.run;

import dev.spacebench.measure.Phase;
import dev.spacebench.metric.InEntry;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PairedRatio;
import dev.spacebench.stats.Percentiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A comparison run's figures side by side (issue 29): for each exec metric, each entry's p50 and
 * its ratio to the first entry with a 95% confidence interval from the block-paired samples
 * ({@link PairedRatio}: block i of the entry against block i of the first, taken in the same round
 * of the interleaved schedule). Computed from the stored samples on each read, so a run that
 * stopped early shows the blocks it finished; only blocks both entries finished are paired.
 */
@Component
public class ComparisonFigures {

    private final RunRepository runs;
    private final JdbcTemplate jdbc;

    public ComparisonFigures(RunRepository runs, JdbcTemplate jdbc) {
        this.runs = runs;
        this.jdbc = jdbc;
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

    /** @return the figures of run {@code runId} if it is a comparison run, else null */
    public Figures of(long runId) {
        Run run = runs.findById(runId).orElseThrow(() -> new RunNotFoundException(runId));
        if (!run.isComparison()) {
            return null;
        }
        List<CompareEntry> entries = run.getCompareEntries().stream()
                .map(e -> new CompareEntry(e.label(), e.space().redacted(), e.channels())).toList();
        // metric id → block → its measured ok samples' ns
        Map<String, TreeMap<Integer, List<Long>>> blocks = new HashMap<>();
        jdbc.query("select metric, block, ns from sample where run_id = ? and phase = ? and ok = true and block is not null",
                rs -> {
                    blocks.computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
                            .computeIfAbsent(rs.getInt(2), k -> new ArrayList<>()).add(rs.getLong(3));
                }, runId, Phase.MEASURED.wireName());
        List<Row> rows = new ArrayList<>();
        for (Metric metric : PlanMetrics.exec(run.getPlan())) {
            TreeMap<Integer, List<Long>> first = blocks.getOrDefault(metric.id(), new TreeMap<>());
            List<Cell> cells = new ArrayList<>();
            for (int e = 1; e <= entries.size(); e++) {
                String id = InEntry.id(metric.id(), e);
                cells.add(cell(entries.get(e - 1).label(), id, first, blocks.getOrDefault(id, new TreeMap<>()), e == 1));
            }
            rows.add(new Row(metric.id(), metric.label(), cells));
        }
        return new Figures(entries, rows, PairedRatio.METHOD, PairedRatio.DEFAULT_LEVEL);
    }

    private static Cell cell(String label, String id, TreeMap<Integer, List<Long>> first, TreeMap<Integer, List<Long>> mine,
                             boolean isFirst) {
        long[] all = mine.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sorted().toArray();
        Long p50 = all.length == 0 ? null : Percentiles.of(all, 50);
        if (isFirst) {
            return new Cell(label, id, all.length, p50, all.length == 0 ? null : 1.0, null, null, 0, null);
        }
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        for (var block : mine.entrySet()) {
            List<Long> paired = first.get(block.getKey());
            if (paired != null && !paired.isEmpty() && !block.getValue().isEmpty()) {
                a.add(block.getValue().stream().mapToLong(Long::longValue).toArray());
                b.add(paired.stream().mapToLong(Long::longValue).toArray());
            }
        }
        if (a.isEmpty()) {
            return new Cell(label, id, all.length, p50, null, null, null, 0, null);
        }
        PairedRatio ratio = PairedRatio.of(a, b);
        return new Cell(label, id, all.length, p50, ratio.ratio(), ratio.lower(),
                Double.isFinite(ratio.upper()) ? ratio.upper() : null, ratio.blocks(), ratio.includesOne());
    }
}
