package dev.spacebench.benchmark;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.publish.Format;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.run.samples.SampleRows;
import dev.spacebench.run.samples.SortedSamples;
import dev.spacebench.stats.PooledRuns;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * A benchmark's repeats pooled (issue 29 point 5): for each headline metric of its current run,
 * the p50 and p99 of every run published under its slug since the plan last changed
 * ({@link PoolWindow}), with the two-level bootstrap interval of {@link PooledRuns}. Figures come
 * from the runs' stored samples only; one run's samples at a time are in memory, thinned to
 * {@link PooledRuns#PER_RUN} before the next is read.
 */
@Component
public class BenchmarkPool {

    private final BenchmarkRepository benchmarks;
    private final BenchmarkRunRepository entries;
    private final RunService runs;
    private final SortedSamples sorted;
    private final SampleRows rows;
    private final JsonMapper json;

    public BenchmarkPool(BenchmarkRepository benchmarks, BenchmarkRunRepository entries, RunService runs, SortedSamples sorted,
                         SampleRows rows, JsonMapper json) {
        this.benchmarks = benchmarks;
        this.entries = entries;
        this.runs = runs;
        this.sorted = sorted;
        this.rows = rows;
        this.json = json;
    }

    /**
     * What the page shows.
     *
     * @param runIds the runs pooled, newest first
     * @param oneRun whether there is a single run (its figures, no interval)
     * @param method e.g. {@link PooledRuns#METHOD}
     * @param rows one per headline metric the current run measured
     */
    public record Pool(List<Long> runIds, boolean oneRun, String method, List<Row> rows) {
        /** k, the runs in the window. */
        public int k() {
            return runIds.size();
        }
    }

    /**
     * One metric pooled; texts are durations as the page prints them (e.g. "2.89 ms").
     *
     * @param k the runs pooled that measured this metric
     * @param figures the numbers, in ns
     * @param p50Interval e.g. "2.71 ms – 3.10 ms"; null for one run
     * @param spread the runs' own p50s, lowest – highest, e.g. "2.75 ms – 3.02 ms"; null for one run
     */
    public record Row(String metric, int k, PooledRuns figures, String p50, String p50Interval, String p99, String p99Interval,
                      String spread) {
    }

    /**
     * @throws BenchmarkNotFoundException if no benchmark has this slug
     */
    @Transactional(readOnly = true)
    public Pool of(String slug) {
        Benchmark benchmark = benchmarks.findBySlug(slug).orElseThrow(() -> new BenchmarkNotFoundException(slug));
        List<Run> published = entries.findByBenchmarkIdOrderByPublishedAtDescIdDesc(benchmark.getId()).stream()
                .map(e -> runs.get(e.getRunId())).toList();
        List<Run> window = PoolWindow.sincePlanChanged(published, run -> run.getPlan() == null ? null : json.valueToTree(run.getPlan()));
        List<Long> ids = window.stream().map(Run::getId).toList();
        List<MetricResult> current = window.isEmpty() ? List.of() : runs.results(ids.get(0));
        List<Row> rowsShown = new ArrayList<>();
        for (ExecRoundTrip metric : BenchmarkService.HEADLINE) {
            if (current.stream().noneMatch(r -> r.getMetric().equals(metric.id()) && r.getP50Ns() != null)) {
                continue;
            }
            List<long[]> samples = new ArrayList<>();
            for (long id : ids) {
                long[] mine = sorted.read(id, List.of(metric.id())).get(metric.id());
                if (mine == null) {
                    mine = rows.measuredNs(id, metric.id());
                }
                if (mine.length > 0) {
                    samples.add(PooledRuns.thin(mine, PooledRuns.PER_RUN));
                }
            }
            if (!samples.isEmpty()) {
                PooledRuns pooled = PooledRuns.of(samples);
                boolean interval = pooled.hasInterval();
                rowsShown.add(new Row(metric.label(), pooled.runs(), pooled, Format.duration(pooled.p50Ns()),
                        interval ? Format.duration(pooled.p50LowNs()) + " – " + Format.duration(pooled.p50HighNs()) : null,
                        Format.duration(pooled.p99Ns()),
                        interval ? Format.duration(pooled.p99LowNs()) + " – " + Format.duration(pooled.p99HighNs()) : null,
                        interval ? Format.duration(pooled.minRunP50Ns()) + " – " + Format.duration(pooled.maxRunP50Ns()) : null));
            }
        }
        return new Pool(ids, ids.size() == 1, PooledRuns.METHOD, rowsShown);
    }
}
