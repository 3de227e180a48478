package dev.spacebench.run;

import dev.spacebench.channel.Lane;
import dev.spacebench.measure.Measurement;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.stats.Histograms;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.Percentiles;
import dev.spacebench.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a run's samples into one {@link MetricResult} per metric, in page order: Space ready,
 * exec metrics, then upload and download per file size, then Space delete, then the floor. A metric with no
 * sample at all (the run stopped before it) gets no result; one whose samples all failed gets a
 * result with counts and no figures.
 */
final class ResultCalculator {

    static final String SPACE_READY = SpaceLifecycle.READY.id();
    static final String SPACE_DELETE = SpaceLifecycle.DELETE.id();

    private ResultCalculator() {}

    static List<MetricResult> compute(long runId, Plan plan, boolean hasBulkLane, List<Sample> samples, RunJson json) {
        List<MetricResult> results = new ArrayList<>();
        add(results, runId, SPACE_READY, 0, null, samples, json);
        for (SpaceLifecycle part : List.of(SpaceLifecycle.READY_CREATE, SpaceLifecycle.READY_AGENT, SpaceLifecycle.READY_PING)) {
            add(results, runId, part.id(), 0, null, samples, json);
        }
        for (String name : plan.exec().metrics()) {
            add(results, runId, ExecRoundTrip.fromWireName(name).orElseThrow().id(), 0, null, samples, json);
        }
        for (FileSize size : plan.files().sizes()) {
            Lane lane = Measurement.laneFor(size.bytes(), plan, hasBulkLane);
            add(results, runId, Transfer.upload(size.bytes()).id(), size.bytes(), lane.wireName(), samples, json);
            add(results, runId, Transfer.download(size.bytes()).id(), size.bytes(), lane.wireName(), samples, json);
        }
        add(results, runId, SPACE_DELETE, 0, null, samples, json);
        for (FloorMetric floor : FloorMetric.values()) {
            add(results, runId, floor.id(), 0, null, samples, json);
        }
        return results;
    }

    private static void add(List<MetricResult> results, long runId, String metric, long bytes, String lane, List<Sample> all,
                            RunJson json) {
        List<Sample> mine = all.stream().filter(s -> s.metric().equals(metric)).toList();
        if (mine.isEmpty()) {
            return;
        }
        int warmups = (int) mine.stream().filter(s -> s.phase() == Phase.WARMUP).count();
        int failures = (int) mine.stream().filter(s -> s.phase() == Phase.MEASURED && !s.ok()).count();
        long[] ns = mine.stream().filter(s -> s.phase() == Phase.MEASURED && s.ok()).mapToLong(Sample::ns).toArray();
        int position = results.size();
        if (ns.length == 0) {
            results.add(new MetricResult(runId, metric, position, bytes, lane, 0, warmups, failures,
                    null, null, null, null, null, null, null, null, null));
            return;
        }
        Summary s = Summary.of(ns);
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        MetricResult result = new MetricResult(runId, metric, position, bytes, lane, s.n(), warmups, failures,
                s.min(), s.p50(), s.p95(), s.p99(), s.max(), s.mean(), s.stddev(),
                json.write(PercentileInterval.published(sorted)), Histograms.encode(Histograms.of(ns)));
        addSplit(result, mine);
        results.add(result);
    }

    /** p50 of the agent's own time and of the rest, over the measured ok samples that carry it. */
    private static void addSplit(MetricResult result, List<Sample> mine) {
        List<Sample> timed = mine.stream().filter(x -> x.phase() == Phase.MEASURED && x.ok() && x.agentNs() != null).toList();
        if (timed.isEmpty()) {
            return;
        }
        long[] agent = timed.stream().mapToLong(Sample::agentNs).sorted().toArray();
        long[] rest = timed.stream().mapToLong(x -> x.ns() - x.agentNs()).sorted().toArray();
        result.setSplit(Percentiles.of(agent, 50), Percentiles.of(rest, 50));
    }
}
