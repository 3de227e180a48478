package dev.spacebench.publish;

import dev.spacebench.channel.Lane;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Kind;
import dev.spacebench.metric.Sweep;
import dev.spacebench.publish.plot.DriftPlot;
import dev.spacebench.publish.plot.PercentilePlot;
import dev.spacebench.publish.plot.SweepPlot;
import dev.spacebench.publish.plot.ThroughputPlot;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.run.samples.BlockMedians;
import dev.spacebench.run.samples.SampleRows;
import dev.spacebench.stats.PercentileTable;
import dev.spacebench.stats.Throughput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * A run's plots as SVG: one percentile distribution per exec metric (with the matching floor
 * as a second line where measured) and one throughput-by-size plot. Each also has its own URL.
 * Drawing reads the percentile tables stored with the figures; only a run stored before those
 * were kept has its samples read instead.
 */
@Component
public class Plots {

    private static final String THROUGHPUT = "throughput";
    /** The concurrency sweep's plots (issue 13): round trip p50 and p99, and round trips per second, against busy Spaces. */
    static final String SWEEP_LATENCY = "sweep.latency";
    static final String SWEEP_LATENCY_TITLE = "Round trip (p50, p99) against busy Spaces";
    static final String SWEEP_RATE = "sweep.rate";
    static final String SWEEP_RATE_TITLE = "Round trips per second against busy Spaces";
    private static final String THROUGHPUT_TITLE = "Throughput by file size (MiB/s at the p50)";
    /** An interleaved run's block medians against time (issue 29, point 4), one line per series. */
    static final String DRIFT = "drift";
    static final String DRIFT_TITLE = "Drift: each series' block medians against time, over its own median";

    private final RunService runs;
    private final SampleRows samples;
    private final BlockMedians blockMedians;

    public Plots(RunService runs, SampleRows samples, BlockMedians blockMedians) {
        this.runs = runs;
        this.samples = samples;
        this.blockMedians = blockMedians;
    }

    /**
     * A plot a run has data for.
     *
     * @param title heading; {@code url} where the SVG is served on its own
     */
    public record Plot(String id, String title, String url) {
    }

    /**
     * Every plot this run has data for, in page order, from its stored figures alone: no samples
     * are read and nothing is drawn (exports and comparisons need only the references).
     */
    public List<Plot> available(long runId, List<MetricResult> results) {
        List<Plot> plots = new ArrayList<>();
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            results.stream().filter(r -> r.getMetric().equals(metric.id()) && r.getN() > 0).findFirst()
                    .ifPresent(r -> plots.add(new Plot(metric.id(), latencyTitle(metric, r.getN()),
                            "/api/runs/" + runId + "/plots/" + metric.id() + ".svg")));
        }
        if (!throughputPoints(results).isEmpty()) {
            plots.add(new Plot(THROUGHPUT, THROUGHPUT_TITLE, "/api/runs/" + runId + "/plots/throughput.svg"));
        }
        if (blockMedians.read(runId).values().stream().anyMatch(b -> b.size() >= 2)) {
            plots.add(new Plot(DRIFT, DRIFT_TITLE, "/api/runs/" + runId + "/plots/" + DRIFT + ".svg"));
        }
        // The sweep's two plots are the sweep section's own (RunReport.Sweep#plots), not listed here.
        return plots;
    }

    /** The SVG of every plot the run has, by plot id: what the HTML page draws inline. */
    public Map<String, String> svgs(long runId) {
        List<MetricResult> results = runs.results(runId);
        Map<String, String> svgs = new LinkedHashMap<>();
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            latency(runId, metric.id(), results).ifPresent(svg -> svgs.put(metric.id(), svg));
        }
        List<ThroughputPlot.Point> points = throughputPoints(results);
        if (!points.isEmpty()) {
            svgs.put(THROUGHPUT, ThroughputPlot.svg(THROUGHPUT_TITLE, points));
        }
        drift(runId, results).ifPresent(svg -> svgs.put(DRIFT, svg));
        Run run = runs.get(runId);
        sweep(run, results, SWEEP_LATENCY).ifPresent(svg -> svgs.put(SWEEP_LATENCY, svg));
        sweep(run, results, SWEEP_RATE).ifPresent(svg -> svgs.put(SWEEP_RATE, svg));
        return svgs;
    }

    /**
     * @param plot {@value #SWEEP_LATENCY} or {@value #SWEEP_RATE}
     * @return the SVG; empty when the run has no sweep figures (or for another plot id)
     */
    public Optional<String> sweep(long runId, String plot) {
        return sweep(runs.get(runId), runs.results(runId), plot);
    }

    private static Optional<String> sweep(Run run, List<MetricResult> results, String plot) {
        if (run.getPlan().concurrency() == null || !(plot.equals(SWEEP_LATENCY) || plot.equals(SWEEP_RATE))) {
            return Optional.empty();
        }
        List<Integer> levels = run.getPlan().concurrency().levels();
        Integer cpus = run.getEnvironment() == null ? null : run.getEnvironment().host().cpuCount();
        List<SweepPlot.Series> series = new ArrayList<>();
        boolean any = false;
        for (ExecRoundTrip metric : PlanMetrics.exec(run.getPlan().concurrency())) {
            List<MetricResult> at = levels.stream().map(l -> results.stream()
                    .filter(r -> r.getMetric().equals(new Sweep(metric, l).id())).findFirst().orElse(null)).toList();
            any |= at.stream().anyMatch(r -> r != null && r.getP50Ns() != null);
            if (plot.equals(SWEEP_LATENCY)) {
                series.add(new SweepPlot.Series(metric.label() + " p50", levels, ms(at, MetricResult::getP50Ns)));
                series.add(new SweepPlot.Series(metric.label() + " p99", levels, ms(at, MetricResult::getP99Ns)));
            } else {
                series.add(new SweepPlot.Series(metric.label() + ", all Spaces", levels,
                        at.stream().map(r -> r == null ? null : r.getPerSecond()).toList()));
            }
        }
        if (!any) {
            return Optional.empty();
        }
        return Optional.of(plot.equals(SWEEP_LATENCY)
                ? SweepPlot.svg(SWEEP_LATENCY_TITLE, "Round trip (ms)", levels, cpus, series)
                : SweepPlot.svg(SWEEP_RATE_TITLE, "Round trips per second", levels, cpus, series));
    }

    /**
     * @param plot {@value #DRIFT}
     * @return the drift plot; empty for another plot id or a run with no series in two blocks or more
     */
    public Optional<String> drift(long runId, String plot) {
        return DRIFT.equals(plot) ? drift(runId, runs.results(runId)) : Optional.empty();
    }

    private Optional<String> drift(long runId, List<MetricResult> results) {
        Map<String, java.util.SortedMap<Integer, Long>> blocks = blockMedians.read(runId);
        Drift drift = Drift.of(blocks, results);
        java.util.Set<String> flagged = new java.util.HashSet<>();
        drift.flagged().forEach(s -> flagged.add(s.metric()));
        List<DriftPlot.Series> series = new ArrayList<>();
        blocks.entrySet().stream().filter(e -> e.getValue().size() >= 2)
                .sorted(Map.Entry.comparingByKey((a, b) -> dev.spacebench.metric.Metric.PAGE_ORDER.compare(
                        dev.spacebench.metric.Metric.of(a), dev.spacebench.metric.Metric.of(b))))
                .forEach(e -> series.add(new DriftPlot.Series(dev.spacebench.metric.Metric.of(e.getKey()).label(),
                        List.copyOf(e.getValue().keySet()), List.copyOf(e.getValue().values()), flagged.contains(e.getKey()))));
        return series.isEmpty() ? Optional.empty() : Optional.of(DriftPlot.svg(DRIFT_TITLE, series));
    }

    private static List<Double> ms(List<MetricResult> at, java.util.function.Function<MetricResult, Long> figure) {
        return at.stream().map(r -> r == null || figure.apply(r) == null ? null : figure.apply(r) / 1e6).toList();
    }

    /**
     * @param metric an exec metric id such as {@code exec.true}
     * @return the SVG; empty when the run has no measured samples of it
     */
    public Optional<String> latency(long runId, String metric) {
        return latency(runId, metric, runs.results(runId));
    }

    private Optional<String> latency(long runId, String metric, List<MetricResult> results) {
        Optional<ExecRoundTrip> exec = ExecRoundTrip.fromId(metric);
        if (exec.isEmpty()) {
            return Optional.empty();
        }
        Optional<PercentileTable> space = table(runId, metric, results);
        if (space.isEmpty()) {
            return Optional.empty();
        }
        List<PercentilePlot.Series> series = new ArrayList<>();
        series.add(new PercentilePlot.Series(exec.get().label() + " into the Space", space.get()));
        // The plot draws the most direct floor only.
        FloorMetric floorMetric = exec.get().floors().get(0);
        table(runId, floorMetric.id(), results)
                .ifPresent(floor -> series.add(new PercentilePlot.Series(floorMetric.description(), floor)));
        return Optional.of(PercentilePlot.svg(latencyTitle(exec.get(), space.get().n()), series));
    }

    /** @return the SVG; empty when the run has no file figures */
    public Optional<String> throughput(long runId) {
        List<ThroughputPlot.Point> points = throughputPoints(runs.results(runId));
        return points.isEmpty() ? Optional.empty() : Optional.of(ThroughputPlot.svg(THROUGHPUT_TITLE, points));
    }

    /** n is the measured, successful samples: the figures' n, and the number of samples plotted. */
    private static String latencyTitle(ExecRoundTrip metric, int n) {
        return metric.label() + ": round trip by percentile (n = " + n + ")";
    }

    private static List<ThroughputPlot.Point> throughputPoints(List<MetricResult> results) {
        List<ThroughputPlot.Point> points = new ArrayList<>();
        for (MetricResult r : results) {
            Double mibPerSecond = Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns());
            if (mibPerSecond == null || r.getLane() == null) {
                continue;
            }
            ThroughputPlot.Direction direction = Kind.ofId(r.getMetric()) == Kind.UPLOAD
                    ? ThroughputPlot.Direction.UPLOAD : ThroughputPlot.Direction.DOWNLOAD;
            Lane lane = r.getLane().equals(Lane.BULK.wireName()) ? Lane.BULK : Lane.STREAM;
            points.add(new ThroughputPlot.Point(direction, lane, r.getBytes(), mibPerSecond));
        }
        return points;
    }

    /** The stored table; for a run stored before tables were kept, one computed from its samples; empty without a result. */
    private Optional<PercentileTable> table(long runId, String metric, List<MetricResult> results) {
        Optional<MetricResult> result = results.stream().filter(r -> r.getMetric().equals(metric)).findFirst();
        if (result.isPresent() && result.get().getPercentileTable() != null) {
            return Optional.of(PercentileTable.decode(result.get().getPercentileTable()));
        }
        // No result row (a floor the plan skipped, a metric not measured yet): nothing to draw, and
        // no walk over every sample of a million-sample run to find none.
        if (result.isEmpty() || result.get().getN() == 0) {
            return Optional.empty();
        }
        long[] sorted = samples.measuredNs(runId, metric);
        return sorted.length == 0 ? Optional.empty() : Optional.of(PercentileTable.of(sorted));
    }
}
