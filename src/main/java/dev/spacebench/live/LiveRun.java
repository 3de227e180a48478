package dev.spacebench.live;

import dev.spacebench.metric.Metric;
import dev.spacebench.publish.Format;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunStatus;
import dev.spacebench.run.RunView;
import java.util.List;
import java.util.Locale;

/**
 * A run as the dashboard shows it while it goes on, with every figure already formatted so the
 * page's script only copies text. Sent as the data of each {@code run} server-sent event.
 *
 * @param status a {@link RunStatus} name
 * @param finished true once the status is final (no more events for this run after it)
 * @param step what it is doing, e.g. "exec.sh_c · measured 120/300", "starting", or "waiting in the queue"
 * @param metric the metric being measured (null before the first iteration)
 * @param phase "warmup" or "measured" (null before the first iteration)
 * @param percent iterations done / all iterations × 100, one decimal (100 once SUCCEEDED)
 * @param percentText e.g. "45.2%", "100%"
 * @param figures per metric measured so far: p50 and n (the final figures once finished)
 * @param page the run's page, e.g. {@code /runs/7}
 */
public record LiveRun(long id, String status, boolean finished, String kind, String createdText, String step,
                      String metric, String phase, long done, long total, double percent, String percentText, boolean cancelRequested,
                      String failureReason, List<Figure> figures, String page) {

    /**
     * @param label e.g. "sh -c true", "upload 1 MiB", "Space ready", "floor spawn true"
     * @param p50 e.g. "2.89 ms", or "—" when every sample failed
     * @param n measured samples that succeeded
     */
    public record Figure(String metric, String label, String p50, int n) {
    }

    /** @param results the run's stored figures, in page order */
    public static LiveRun of(Run run, List<MetricResult> results) {
        RunStatus status = run.getStatus();
        double percent = RunView.percentDone(run);
        return new LiveRun(run.getId(), status.name(), status.finished(), run.getKind(), Format.dateTime(run.getCreatedAt()),
                step(run), run.getProgressMetric(), run.getProgressPhase(), run.getProgressDone(), run.getProgressTotal(), percent, percentText(percent),
                run.isCancelRequested(), run.getFailureReason(),
                results.stream().map(r -> new Figure(r.getMetric(), label(r), Format.duration(r.getP50Ns()), r.getN())).toList(),
                "/runs/" + run.getId());
    }

    private static String percentText(double percent) {
        return String.format(Locale.ROOT, percent == Math.rint(percent) ? "%.0f%%" : "%.1f%%", percent);
    }

    private static String step(Run run) {
        if (run.getStatus() == RunStatus.QUEUED) {
            return "waiting in the queue";
        }
        if (run.getStatus().finished()) {
            return run.getStatus().name().toLowerCase(Locale.ROOT);
        }
        if (run.getProgressMetric() == null) {
            // Before the first iteration: measuring the floor's timer, or creating the Space.
            return "starting";
        }
        return run.getProgressMetric() + " · " + run.getProgressPhase() + " " + run.getProgressIteration() + "/"
                + run.getProgressIterations() + (run.isCancelRequested() ? " · cancelling" : "");
    }

    private static String label(MetricResult r) {
        return Metric.parse(r.getMetric()).map(Metric::label).orElse(r.getMetric());
    }
}
