package dev.spacebench.compare;

import java.util.List;

/**
 * A regression check of a run against a baseline: each metric passes when the run's figure is at
 * most {@code threshold} times the baseline's.
 *
 * @param verdict "pass" when every compared metric passes, else "fail"
 * @param statistic which figure was compared: "p50", "p95" or "p99"
 */
public record CheckResult(long run, String baseline, double threshold, String statistic, String verdict,
                          List<MetricCheck> metrics) {

    /** @param ratio run / baseline */
    public record MetricCheck(String metric, long runNs, long baselineNs, double ratio, boolean pass) {
    }
}
