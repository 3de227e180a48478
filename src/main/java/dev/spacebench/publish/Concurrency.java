package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.Sweep;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.MetricResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The concurrency sweep's part of a run's report: its rows level by level, and the knee — the
 * first level whose p99 exceeds twice the single-Space p99 of the sweep's headline metric.
 */
final class Concurrency {

    /** p99 more than this many times the single-Space p99 marks the knee. */
    static final double KNEE_FACTOR = 2.0;

    private Concurrency() {}

    /** @return null when the plan has no sweep */
    static RunReport.Sweep of(long runId, Plan plan, List<MetricResult> results, String kind, Integer hostCpus) {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return null;
        }
        List<RunReport.SweepRow> rows = new ArrayList<>();
        for (MetricResult r : results) {
            Optional<Metric> parsed = Metric.parse(r.getMetric());
            if (r.getLevel() == null || parsed.isEmpty() || !(parsed.get() instanceof Sweep s)) {
                continue;
            }
            Map<String, dev.spacebench.stats.PercentileInterval> ci = r.getIntervals();
            rows.add(new RunReport.SweepRow(s.level(), s.base().id(), r.getMetric(), s.base().label(),
                    new RunReport.Percentiles(RunReport.Figure.of(r.getP50Ns(), ci.get("p50"), "p50", r.getN()),
                            RunReport.Figure.of(r.getP95Ns(), ci.get("p95"), "p95", r.getN()),
                            RunReport.Figure.of(r.getP99Ns(), ci.get("p99"), "p99", r.getN()),
                            RunReport.Figure.of(r.getMaxNs())),
                    r.getN(), r.getFailures(),
                    new RunReport.SpaceSpread(RunReport.Figure.of(r.getFastestSpaceP50Ns()), RunReport.Figure.of(r.getSlowestSpaceP50Ns())),
                    new RunReport.Throughput(r.getPerSecond(), r.getPerSecond() == null ? "—" : Format.significant(r.getPerSecond()),
                            RunReport.Figure.of(r.getWallNs()))));
        }
        Knee knee = knee(sweep, results);
        Map<String, Object> words = new HashMap<>();
        words.put("kind", kind);
        words.put("label", knee.metric.label());
        words.put("hostCpus", hostCpus);
        words.put("kneeLevel", knee.level);
        words.put("kneeP99", Format.duration(knee.levelP99Ns));
        words.put("singleP99", knee.singleP99Ns == null ? null : Format.duration(knee.singleP99Ns));
        words.put("maxLevel", knee.lastLevel);
        words.put("maxP99", Format.duration(knee.lastP99Ns));
        String sentence = rows.isEmpty() ? null : String.join(" ", TextTemplates.paragraphs("prose/knee", words));
        List<Plots.Plot> plots = rows.isEmpty() ? List.of() : List.of(
                new Plots.Plot(Plots.SWEEP_LATENCY, Plots.SWEEP_LATENCY_TITLE, "/api/runs/" + runId + "/plots/" + Plots.SWEEP_LATENCY + ".svg"),
                new Plots.Plot(Plots.SWEEP_RATE, Plots.SWEEP_RATE_TITLE, "/api/runs/" + runId + "/plots/" + Plots.SWEEP_RATE + ".svg"));
        return new RunReport.Sweep(hostCpus, sweep.levels(), rows, sentence, knee.level, knee.metric.id(), knee.singleP99Ns, plots);
    }

    /** The sweep's headline metric: sh -c true, else true, else the no-op, as the headline picks. */
    static ExecRoundTrip metric(ConcurrencyPlan sweep) {
        for (ExecRoundTrip m : Headline.METRICS) {
            if (sweep.metrics().contains(m.command().wireName())) {
                return m;
            }
        }
        return ExecRoundTrip.SH_C;
    }

    private record Knee(ExecRoundTrip metric, Long singleP99Ns, Integer level, Long levelP99Ns, Integer lastLevel, Long lastP99Ns) {
    }

    /**
     * The single-Space p99 is the sweep's own level 1 where it has one (same n, same fresh agents),
     * else the run's single-Space loop of the same metric.
     */
    private static Knee knee(ConcurrencyPlan sweep, List<MetricResult> results) {
        ExecRoundTrip metric = metric(sweep);
        Long single = p99(results, new Sweep(metric, 1).id())
                .or(() -> p99(results, metric.id())).orElse(null);
        Integer last = null;
        Long lastP99 = null;
        for (int level : sweep.levels()) {
            Optional<Long> p99 = p99(results, new Sweep(metric, level).id());
            if (p99.isEmpty()) {
                continue;
            }
            last = level;
            lastP99 = p99.get();
            if (single != null && level > 1 && p99.get() > KNEE_FACTOR * single) {
                return new Knee(metric, single, level, p99.get(), last, lastP99);
            }
        }
        return new Knee(metric, single, null, null, last, lastP99);
    }

    private static Optional<Long> p99(List<MetricResult> results, String id) {
        return RunReportBuilder.find(results, id).map(MetricResult::getP99Ns);
    }
}
