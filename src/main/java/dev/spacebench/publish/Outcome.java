package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a run that did not succeed really did: which of its plan's metrics were measured to the
 * end, which were cut short, which were never reached. A page says this instead of describing
 * loops that did not run.
 */
final class Outcome {

    private Outcome() {}

    /**
     * @param measuredToTheEnd e.g. "exec.noop (n = 300)"
     * @param cutShort e.g. "exec.true (120 of 300 measured iterations, 1 failed)"
     * @param notReached metric ids with no sample at all
     */
    record Metrics(List<String> measuredToTheEnd, List<String> cutShort, List<String> notReached) {
    }

    static Metrics of(Plan plan, List<MetricResult> results) {
        List<String> done = new ArrayList<>();
        List<String> cut = new ArrayList<>();
        List<String> none = new ArrayList<>();
        for (String name : plan.exec().metrics()) {
            classify(ExecRoundTrip.fromWireName(name).orElseThrow().id(), plan.exec().n(), results, done, cut, none);
        }
        for (FileSize size : plan.files().sizes()) {
            classify(Transfer.upload(size.bytes()).id(), size.n(), results, done, cut, none);
            classify(Transfer.download(size.bytes()).id(), size.n(), results, done, cut, none);
        }
        return new Metrics(done, cut, none);
    }

    private static void classify(String metric, int planned, List<MetricResult> results, List<String> done, List<String> cut,
                                 List<String> none) {
        Optional<MetricResult> result = RunReportBuilder.find(results, metric);
        if (result.isEmpty()) {
            none.add(metric);
            return;
        }
        MetricResult r = result.get();
        int measured = r.getN() + r.getFailures();
        String failed = r.getFailures() == 0 ? "" : ", " + r.getFailures() + " failed";
        if (measured >= planned) {
            done.add(metric + " (n = " + r.getN() + failed + ")");
        } else {
            cut.add(metric + " (" + measured + " of " + planned + " measured iterations" + failed + ")");
        }
    }

    /** The Method section of a run that did not succeed: what happened, and nothing it did not do. */
    static List<String> describe(Run run, Plan plan, String kind, List<MetricResult> results, int warmups, int failures) {
        Metrics metrics = of(plan, results);
        List<String> lines = new ArrayList<>();
        lines.add("This run ended " + run.getStatus()
                + (run.getFailureReason() == null ? "" : ": " + run.getFailureReason()) + ". It did not run its whole plan, "
                + "so this section says only what it did.");
        boolean spaceMade = RunReportBuilder.find(results, SpaceLifecycle.READY.id()).isPresent();
        lines.add(spaceMade
                ? "A worker created " + Headline.article(kind) + " " + kind + " Space and its agent answered a first Ping; "
                        + "the Space was deleted when the run ended."
                : "No Space of this run answered a Ping: no round trip into a Space was measured.");
        lines.add("Measured to the end: " + (metrics.measuredToTheEnd().isEmpty() ? "no metric"
                : String.join(", ", metrics.measuredToTheEnd())) + ".");
        if (!metrics.cutShort().isEmpty()) {
            lines.add("Cut short: " + String.join(", ", metrics.cutShort()) + ". Their figures rest on fewer samples "
                    + "than planned.");
        }
        if (!metrics.notReached().isEmpty()) {
            lines.add("Not reached (no sample): " + String.join(", ", metrics.notReached()) + ".");
        }
        if (!metrics.measuredToTheEnd().isEmpty() || !metrics.cutShort().isEmpty()) {
            lines.add("Percentiles use the nearest-rank definition: the p-th percentile of n sorted samples is the sample "
                    + "at rank ⌈p/100 · n⌉. Excluded from the figures, but kept in samples.csv: " + warmups
                    + " warm-up sample(s) and " + failures + " failed measured iteration(s).");
        }
        return lines;
    }
}
