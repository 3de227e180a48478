package dev.spacebench.publish;

import dev.spacebench.channel.Lane;
import dev.spacebench.measure.MetricIds;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.publish.plot.PercentilePlot;
import dev.spacebench.publish.plot.ThroughputPlot;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunSampleRepository;
import dev.spacebench.run.RunService;
import dev.spacebench.stats.Throughput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * A run's plots as SVG: one percentile distribution per exec metric (with the matching floor
 * as a second line where measured) and one throughput-by-size plot. Each also has its own URL.
 */
@Component
public class Plots {

    /** The floor each exec metric is drawn against. */
    private static final Map<String, String> FLOOR_OF = Map.of(
            "exec.true", MetricIds.FLOOR_SPAWN_TRUE,
            "exec.sh_c", MetricIds.FLOOR_SPAWN_SH_C,
            "exec.noop", MetricIds.FLOOR_GRPC_PING);

    private final RunService runs;
    private final RunSampleRepository samples;

    public Plots(RunService runs, RunSampleRepository samples) {
        this.runs = runs;
        this.samples = samples;
    }

    /**
     * @param title heading; {@code url} where the SVG is served on its own
     */
    public record Plot(String id, String title, String url, String svg) {
    }

    /** Every plot this run has data for, in page order. */
    public List<Plot> all(long runId) {
        List<Plot> plots = new ArrayList<>();
        for (ExecMetric metric : ExecMetric.values()) {
            latency(runId, metric.metricId()).ifPresent(plots::add);
        }
        throughput(runId).ifPresent(plots::add);
        return plots;
    }

    /**
     * @param metric an exec metric id such as {@code exec.true}
     * @return empty when the run has no measured samples of it
     */
    public Optional<Plot> latency(long runId, String metric) {
        Optional<ExecMetric> exec = Arrays.stream(ExecMetric.values()).filter(m -> m.metricId().equals(metric)).findFirst();
        if (exec.isEmpty()) {
            return Optional.empty();
        }
        long[] space = sorted(runId, metric);
        if (space.length == 0) {
            return Optional.empty();
        }
        List<PercentilePlot.Series> series = new ArrayList<>();
        series.add(new PercentilePlot.Series(exec.get().label() + " into the Space", space));
        long[] floor = sorted(runId, FLOOR_OF.get(metric));
        if (floor.length > 0) {
            series.add(new PercentilePlot.Series(Floor.label(FLOOR_OF.get(metric)), floor));
        }
        String title = exec.get().label() + ": round trip by percentile (n = " + space.length + ")";
        return Optional.of(new Plot(metric, title, "/api/runs/" + runId + "/plots/" + metric + ".svg",
                PercentilePlot.svg(title, series)));
    }

    /** @return empty when the run has no file figures */
    public Optional<Plot> throughput(long runId) {
        List<ThroughputPlot.Point> points = new ArrayList<>();
        for (MetricResult r : runs.results(runId)) {
            if (r.getBytes() <= 0 || r.getP50Ns() == null || r.getP50Ns() <= 0 || r.getLane() == null) {
                continue;
            }
            ThroughputPlot.Direction direction = r.getMetric().startsWith("file.upload.")
                    ? ThroughputPlot.Direction.UPLOAD : ThroughputPlot.Direction.DOWNLOAD;
            Lane lane = r.getLane().equals(Lane.BULK.wireName()) ? Lane.BULK : Lane.STREAM;
            points.add(new ThroughputPlot.Point(direction, lane, r.getBytes(), Throughput.mibPerSecond(r.getBytes(), r.getP50Ns())));
        }
        if (points.isEmpty()) {
            return Optional.empty();
        }
        String title = "Throughput by file size (MiB/s at the p50)";
        return Optional.of(new Plot("throughput", title, "/api/runs/" + runId + "/plots/throughput.svg",
                ThroughputPlot.svg(title, points)));
    }

    private long[] sorted(long runId, String metric) {
        return samples.measuredNs(runId, metric).stream().mapToLong(Long::longValue).toArray();
    }
}
