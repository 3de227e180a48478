package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/** One line per run for lists: status, kind, date and the headline figure. */
@Component
public class RunSummaries {

    private final RunService runs;

    public RunSummaries(RunService runs) {
        this.runs = runs;
    }

    /**
     * @param headline e.g. "sh -c true p50 2.89 ms (n = 300)" or "… (n = 298, 2 failed)", or "—" when nothing was measured
     */
    public record RunSummary(long id, String status, String kind, Instant createdAt, String createdText, String headline,
                             String failureReason) {
    }

    public RunSummary of(Run run) {
        return new RunSummary(run.getId(), run.getStatus().name(), run.getKind(), run.getCreatedAt(),
                Format.dateTime(run.getCreatedAt()), headline(runs.results(run.getId())), run.getFailureReason());
    }

    private static String headline(List<MetricResult> results) {
        for (ExecRoundTrip wanted : Headline.METRICS) {
            for (MetricResult r : results) {
                if (r.getMetric().equals(wanted.id()) && r.getP50Ns() != null) {
                    return wanted.listLabel() + " p50 "
                            + Format.duration(r.getP50Ns()) + " (n = " + r.getN()
                            + (r.getFailures() == 0 ? "" : ", " + r.getFailures() + " failed") + ")";
                }
            }
        }
        return "—";
    }
}
