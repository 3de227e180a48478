package dev.spacebench.run;

import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.Throughput;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run as {@code GET /api/runs/{id}} shows it: status, progress, and the figures so far.
 * Times in ns; MiB/s = bytes / 2^20 / (p50 in s).
 *
 * @param failedSamples measured iterations that failed, over every metric whose figures are saved
 *     (all of them once the run has finished; while it runs, the metrics measured to the end)
 * @param failedByMetric the same per metric, only metrics with at least one failure
 * @param testbed the testbed the run asked for, or the one that took it; null while a run that named none is queued
 * @param compare a comparison run's entries (issue 29), each label with its Space (tokens hidden); null for a run of one Space
 */
public record RunView(
        long id,
        RunStatus status,
        String kind,
        SpaceSpec space,
        Plan plan,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        String failureReason,
        int failedSamples,
        Map<String, Integer> failedByMetric,
        boolean cancelRequested,
        String worker,
        String testbed,
        ProgressView progress,
        List<ResultView> results,
        Links links,
        List<CompareEntry> compare) {

    /**
     * @param done progress units done: an exec iteration counts 1, a file iteration 1 + 2 × bytes / 256 KiB
     *     (see {@code measure.Measurement#progressUnits})
     * @param total the plan's progress units
     * @param percent done / total × 100, one decimal
     */
    public record ProgressView(String metric, String phase, Integer iteration, Integer iterations, long done, long total,
                               double percent) {
    }

    /**
     * @param n measured samples that succeeded
     * @param warmups warm-up samples taken (excluded from the figures)
     * @param failures measured iterations that failed (excluded from the figures)
     * @param mibPerSecond throughput at the median, for file metrics; null otherwise
     */
    public record ResultView(String metric, long bytes, String lane, int n, int warmups, int failures, Long minNs, Long p50Ns,
                             Long p95Ns, Long p99Ns, Long slowestNs, Double meanNs, Double stddevNs, Double mibPerSecond,
                             Map<String, PercentileInterval> intervals) {
    }

    /** @param downloads every file of the run, file name → URL, as its page lists them */
    public record Links(String self, String page, String samplesCsv, String resultJson, String pageMd, String cancel,
                        Map<String, String> downloads) {
    }

    /** @param downloads file name → URL of each of the run's files */
    static RunView of(Run run, List<MetricResult> results, Map<String, String> downloads) {
        SpaceSpec space = run.getSpaceSpec();
        Plan plan = run.getPlan();
        long id = run.getId();
        double percent = percentDone(run);
        Map<String, Integer> failedByMetric = new LinkedHashMap<>();
        results.stream().filter(r -> r.getFailures() > 0).forEach(r -> failedByMetric.put(r.getMetric(), r.getFailures()));
        int failedSamples = failedByMetric.values().stream().mapToInt(Integer::intValue).sum();
        // The spec of an attach run carries its agent's token; a view never shows it.
        return new RunView(id, run.getStatus(), run.getKind(), space == null ? null : space.redacted(), plan,
                run.getCreatedAt(), run.getStartedAt(), run.getFinishedAt(), run.getFailureReason(), failedSamples, failedByMetric,
                run.isCancelRequested(), run.getWorker(), run.getTestbed(),
                new ProgressView(run.getProgressMetric(), run.getProgressPhase(), run.getProgressIteration(),
                        run.getProgressIterations(), run.getProgressDone(), run.getProgressTotal(), percent),
                results.stream().map(RunView::result).toList(),
                new Links("/api/runs/" + id, "/runs/" + id, "/api/runs/" + id + "/samples.csv",
                        "/api/runs/" + id + "/result.json", "/api/runs/" + id + "/page.md", "/api/runs/" + id + "/cancel", downloads),
                run.getCompareEntries() == null ? null : run.getCompareEntries().stream()
                        .map(e -> new CompareEntry(e.label(), e.space().redacted(), e.channels())).toList());
    }

    /** Progress units done / all of the plan's × 100 (weighted by expected time: bytes for transfers), one decimal: what the run's view and its live events both show. */
    public static double percentDone(Run run) {
        return percentDone(run.getStatus(), run.getProgressDone(), run.getProgressTotal());
    }

    /**
     * @param done progress units done ({@code measure.Measurement#progressUnits}), 0 ≤ done ≤ total
     * @param total all progress units of the plan; 0 gives 0
     * @return done / total × 100 rounded to one decimal (half up); 100 once SUCCEEDED, whatever the count
     */
    public static double percentDone(RunStatus status, long done, long total) {
        if (status == RunStatus.SUCCEEDED) {
            return 100.0;
        }
        return total == 0 ? 0 : Math.round(1000.0 * done / total) / 10.0;
    }

    private static ResultView result(MetricResult r) {
        Double mibs = Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns());
        return new ResultView(r.getMetric(), r.getBytes(), r.getLane(), r.getN(), r.getWarmups(), r.getFailures(),
                r.getMinNs(), r.getP50Ns(), r.getP95Ns(), r.getP99Ns(), r.getMaxNs(), r.getMeanNs(), r.getStddevNs(), mibs,
                r.getIntervals());
    }
}
