package dev.spacebench.run;

import dev.spacebench.run.samples.MetricSamples;
import dev.spacebench.measure.Measurement;
import dev.spacebench.measure.Sample;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Sweep;
import dev.spacebench.metric.Transfer;
import dev.spacebench.metric.Via;
import dev.spacebench.plan.Plan;
import dev.spacebench.stats.Histograms;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.PercentileTable;
import dev.spacebench.stats.Percentiles;
import dev.spacebench.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a run's samples into one {@link MetricResult} per metric, in page order: Space ready,
 * exec metrics, then upload and download per file size, then Space delete, then the floor, then a
 * concurrency sweep's metrics level by level (ready, exec, files, delete), then each channel's
 * ({@code via.<channel>.…}) in page order. A metric with no
 * sample at all (the run stopped before it) gets no result; one whose samples all failed gets a
 * result with counts and no figures.
 */
final class ResultCalculator {

    static final String SPACE_READY = SpaceLifecycle.READY.id();
    static final String SPACE_DELETE = SpaceLifecycle.DELETE.id();

    private ResultCalculator() {}

    static List<MetricResult> compute(long runId, Plan plan, boolean hasBulkLane, List<Sample> samples) {
        return compute(runId, plan, hasBulkLane, MetricSamples.of(samples));
    }

    /** As above, from the tallies a run keeps as it goes. */
    static List<MetricResult> compute(long runId, Plan plan, boolean hasBulkLane, MetricSamples samples) {
        List<MetricResult> results = new ArrayList<>();
        for (Metric metric : PlanMetrics.metrics(plan)) {
            Metric measured = metric instanceof Sweep sweep ? sweep.base() : metric;
            long bytes = measured instanceof Transfer transfer ? transfer.bytes() : 0;
            String lane = measured instanceof Transfer ? Measurement.laneFor(bytes, plan, hasBulkLane).wireName() : null;
            if (metric instanceof Sweep sweep) {
                addSweep(results, runId, sweep, bytes, lane, samples);
            } else {
                add(results, runId, metric.id(), bytes, lane, samples);
            }
        }
        // A channel's metrics (via.<channel>.…, issue 27), in page order after the plan's: the same figures as the
        // agent's, so that the Channels table and /compare read them. No lane: a channel moves files its own way.
        samples.metrics().stream().map(id -> Metric.parse(id).orElse(null)).filter(m -> m instanceof Via)
                .sorted(Metric.PAGE_ORDER)
                .forEach(m -> add(results, runId, m.id(), ((Via) m).base() instanceof Transfer t ? t.bytes() : 0, null, samples));
        return results;
    }

    /**
     * A sweep metric's figures, pooled over the level's Spaces as any metric's are, and what only a
     * sweep has: the p50 of its fastest and slowest Space (each Space's own p50, nearest rank), and
     * measured ok samples per second of the level's wall time.
     */
    private static void addSweep(List<MetricResult> results, long runId, Sweep metric, long bytes, String lane, MetricSamples all) {
        int before = results.size();
        add(results, runId, metric.id(), bytes, lane, all);
        if (results.size() == before) {
            return;
        }
        MetricResult result = results.get(before);
        MetricSamples.Tally mine = all.get(metric.id());
        Long fastest = null;
        Long slowest = null;
        for (long[] space : mine.bySpace().values()) {
            if (space.length == 0) {
                continue;
            }
            Arrays.sort(space);
            long p50 = Percentiles.of(space, 50);
            fastest = fastest == null ? p50 : Math.min(fastest, p50);
            slowest = slowest == null ? p50 : Math.max(slowest, p50);
        }
        long wall = mine.wallNs();
        Double perSecond = wall > 0 ? result.getN() / (wall / 1e9) : null;
        result.setSweep(metric.level(), fastest, slowest, perSecond, wall > 0 ? wall : null);
    }

    private static void add(List<MetricResult> results, long runId, String metric, long bytes, String lane, MetricSamples all) {
        MetricSamples.Tally mine = all.get(metric);
        if (mine == null) {
            return;
        }
        int warmups = mine.warmups();
        int failures = mine.failures();
        long[] ns = mine.measured();
        int position = results.size();
        if (ns.length == 0) {
            results.add(new MetricResult(runId, metric, position, bytes, lane, 0, warmups, failures,
                    null, null, null, null, null, null, null, null, null));
            return;
        }
        long[] sorted = mine.sorted();
        Summary s = Summary.ofSorted(sorted);
        // What the page's plots need, computed here once rather than from the samples on every view.
        MetricResult result = new MetricResult(runId, metric, position, bytes, lane, s.n(), warmups, failures,
                s.min(), s.p50(), s.p95(), s.p99(), s.max(), s.mean(), s.stddev(),
                PercentileInterval.published(sorted), Histograms.encode(Histograms.of(ns)),
                PercentileTable.of(sorted).encode());
        addSplit(result, mine);
        results.add(result);
    }

    /** p50 of the agent's own time and of the rest, over the measured ok samples that carry it. */
    private static void addSplit(MetricResult result, MetricSamples.Tally mine) {
        long[] agent = mine.agentTimes();
        if (agent.length == 0) {
            return;
        }
        long[] rest = mine.restTimes();
        addTailSplit(result, agent, rest);
        Arrays.sort(agent);
        Arrays.sort(rest);
        result.setSplit(Percentiles.of(agent, 50), Percentiles.of(rest, 50));
    }

    /**
     * What the tail is made of, from the same samples as the split (agent[i] and rest[i] are one
     * sample's): the samples whose round trip (agent + rest) is at or above their p99, and the slowest one.
     */
    private static void addTailSplit(MetricResult result, long[] agent, long[] rest) {
        int n = agent.length;
        long[] roundTrips = new long[n];
        for (int i = 0; i < n; i++) {
            roundTrips[i] = agent[i] + rest[i];
        }
        long[] sorted = roundTrips.clone();
        Arrays.sort(sorted);
        long p99 = Percentiles.of(sorted, 99);
        long[] tailAgent = new long[n];
        long[] tailRest = new long[n];
        int tail = 0;
        int slowest = 0;
        for (int i = 0; i < n; i++) {
            if (roundTrips[i] >= p99) {
                tailAgent[tail] = agent[i];
                tailRest[tail++] = rest[i];
            }
            if (roundTrips[i] > roundTrips[slowest] || roundTrips[i] == roundTrips[slowest] && agent[i] > agent[slowest]) {
                slowest = i;
            }
        }
        tailAgent = Arrays.copyOf(tailAgent, tail);
        tailRest = Arrays.copyOf(tailRest, tail);
        Arrays.sort(tailAgent);
        Arrays.sort(tailRest);
        result.setTailSplit(p99, tail, Percentiles.of(tailAgent, 50), Percentiles.of(tailRest, 50), agent[slowest], rest[slowest]);
    }
}
