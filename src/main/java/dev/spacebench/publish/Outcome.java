package dev.spacebench.publish;

import dev.spacebench.metric.PlanMetrics;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run that did not succeed really did: which of its plan's metrics were measured to the
 * end, which were cut short, which were never reached. A page says this instead of describing
 * loops that did not run; the prose is {@code templates/text/prose/outcome.txt}.
 */
final class Outcome {

    private Outcome() {}

    /**
     * One planned metric and how far the run got with it.
     *
     * @param metric e.g. {@code exec.noop}
     * @param n measured samples that succeeded
     * @param measured measured iterations, failed ones included
     * @param planned measured iterations the plan asked for
     * @param failed measured iterations that failed
     */
    record MetricOutcome(String metric, int n, int measured, int planned, int failed) {
    }

    record Metrics(List<MetricOutcome> measuredToTheEnd, List<MetricOutcome> cutShort, List<MetricOutcome> notReached) {
    }

    /** What outcome.txt reads: the metrics, and whether a Space ever answered. */
    record Facts(String status, String failureReason, String kind, String article, boolean spaceMade,
                 List<MetricOutcome> measuredToTheEnd, List<MetricOutcome> cutShort, List<MetricOutcome> notReached,
                 int warmups, int failures) {
    }

    static Metrics of(Plan plan, List<MetricResult> results) {
        Metrics metrics = new Metrics(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (PlanMetrics.Loop loop : PlanMetrics.loops(plan)) {
            classify(loop.metric().id(), loop.n(), results, metrics);
        }
        return metrics;
    }

    private static void classify(String metric, int planned, List<MetricResult> results, Metrics metrics) {
        Optional<MetricResult> result = RunReportBuilder.find(results, metric);
        if (result.isEmpty()) {
            metrics.notReached().add(new MetricOutcome(metric, 0, 0, planned, 0));
            return;
        }
        MetricResult r = result.get();
        MetricOutcome outcome = new MetricOutcome(metric, r.getN(), r.getN() + r.getFailures(), planned, r.getFailures());
        (outcome.measured() >= planned ? metrics.measuredToTheEnd() : metrics.cutShort()).add(outcome);
    }

    /** The Method section of a run that did not succeed: what happened, and nothing it did not do. */
    static List<String> describe(Run run, Plan plan, String kind, List<MetricResult> results, int warmups, int failures) {
        Metrics metrics = of(plan, results);
        Facts facts = new Facts(run.getStatus().name(), run.getFailureReason(), kind, Headline.article(kind),
                RunReportBuilder.find(results, SpaceLifecycle.READY.id()).isPresent(),
                metrics.measuredToTheEnd(), metrics.cutShort(), metrics.notReached(), warmups, failures);
        return TextTemplates.paragraphs("prose/outcome", Map.of("o", facts));
    }
}
