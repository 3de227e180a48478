package dev.spacebench.cli;

import dev.spacebench.baseline.BaselineService;
import dev.spacebench.compare.CheckService;
import java.util.List;

/**
 * What {@code --baseline}, {@code --threshold} and {@code --statistic} ask for: after a run that
 * succeeded, the same regression check as {@code GET /api/runs/{id}/check}.
 *
 * @param baseline a baseline's name (see {@code GET /api/baselines}); {@code cua-0.15.0} is built in
 * @param threshold the largest run / baseline ratio that passes, e.g. 1.10 = up to 10% slower
 * @param statistic p50, p95 or p99
 * @param level a concurrency sweep's level whose figures alone are checked; null: every figure
 */
record BaselineCheck(String baseline, double threshold, String statistic, Integer level) {

    static final double DEFAULT_THRESHOLD = CheckService.DEFAULT_THRESHOLD;
    static final List<String> STATISTICS = CheckService.STATISTICS;

    /**
     * Checks what can be checked before measuring, so a typo costs no run.
     *
     * @return null when no baseline was asked for
     * @throws BenchException naming the option at fault
     */
    static BaselineCheck of(String baseline, Double threshold, String statistic, Integer level) {
        if (baseline == null) {
            if (threshold != null || statistic != null || level != null) {
                throw new BenchException("--threshold, --statistic and --level need --baseline NAME");
            }
            return null;
        }
        if (!BaselineService.NAME.matcher(baseline).matches()) {
            throw new BenchException("--baseline must be a name like " + BaselineService.NAME.pattern() + ", was '" + baseline + "'");
        }
        double ratio = threshold == null ? DEFAULT_THRESHOLD : threshold;
        if (!(ratio > 0 && ratio <= CheckService.MAX_THRESHOLD)) {
            throw new BenchException("--threshold must be more than 0 and at most " + (int) CheckService.MAX_THRESHOLD
                    + " (a ratio: 1.10 lets the run be up to 10% slower), was " + threshold);
        }
        String stat = statistic == null ? "p50" : statistic;
        if (!STATISTICS.contains(stat)) {
            throw new BenchException("--statistic must be one of " + STATISTICS + ", was '" + statistic + "'");
        }
        if (level != null && level < 1) {
            throw new BenchException("--level must be a concurrency sweep's level (Spaces busy at once, 1 or more), was " + level);
        }
        return new BaselineCheck(baseline, ratio, stat, level);
    }
}
