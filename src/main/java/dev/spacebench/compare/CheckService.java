package dev.spacebench.compare;

import dev.spacebench.baseline.BaselineFigures;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.Sweep;
import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.springframework.stereotype.Service;

/**
 * The regression check of a run against a baseline, one implementation for the REST endpoint and
 * the command line: each metric passes when the run's figure is at most {@code threshold} times
 * the baseline's.
 */
@Service
public class CheckService {

    /**
     * The threshold a check takes when none is given, as text for annotations: both the REST
     * endpoint and {@code bench --baseline} default to it. 1.10 lets a run be up to 10% slower.
     */
    public static final String DEFAULT_THRESHOLD_TEXT = "1.10";
    /** {@link #DEFAULT_THRESHOLD_TEXT} as a number. */
    public static final double DEFAULT_THRESHOLD = Double.parseDouble(DEFAULT_THRESHOLD_TEXT);
    /** The largest threshold (a run / baseline ratio) a check accepts. */
    public static final double MAX_THRESHOLD = 1000;
    /** The figures a check can compare. */
    public static final List<String> STATISTICS = List.of("p50", "p95", "p99");

    private final Sides sides;

    CheckService(Sides sides) {
        this.sides = sides;
    }

    /**
     * Checks run {@code id} against the baseline named {@code baseline}.
     *
     * @param threshold the largest run / baseline ratio that passes, more than 0 and at most {@link #MAX_THRESHOLD}
     * @param statistic one of {@link #STATISTICS}
     * @throws InvalidRequestException naming threshold, statistic or baseline when the check cannot be made
     * @throws dev.spacebench.baseline.BaselineNotFoundException if there is no such baseline
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     */
    public CheckResult check(long id, String baseline, double threshold, String statistic) {
        return check(id, baseline, threshold, statistic, null);
    }

    /**
     * As {@link #check(long, String, double, String)}, at one level of a concurrency sweep: only the
     * run's figures at that level ({@code sweep.<level>.*}) are checked, each against the baseline's
     * figure of the same id.
     *
     * @param level Spaces busy at once; null: every metric, the sweep's included
     * @throws InvalidRequestException naming level when the run has no figure at that level
     */
    public CheckResult check(long id, String baseline, double threshold, String statistic, Integer level) {
        if (!(threshold > 0 && threshold <= MAX_THRESHOLD)) {
            throw new InvalidRequestException(List.of(new FieldError("threshold",
                    "must be more than 0 and at most " + (int) MAX_THRESHOLD + " (a ratio: 1.10 lets the run be up to 10% slower), was " + threshold)));
        }
        Function<BaselineFigures, Long> pick = switch (statistic) {
            case "p50" -> BaselineFigures::p50Ns;
            case "p95" -> BaselineFigures::p95Ns;
            case "p99" -> BaselineFigures::p99Ns;
            default -> throw new InvalidRequestException(List.of(new FieldError("statistic",
                    "must be one of [p50, p95, p99], was " + dev.spacebench.plan.Shown.quote(statistic))));
        };
        Side base = sides.baseline(baseline, "baseline");
        Side run = sides.run(id);
        List<CheckResult.MetricCheck> checks = new ArrayList<>();
        if (level != null && run.figures().keySet().stream().noneMatch(m -> atLevel(m, level))) {
            throw new InvalidRequestException(List.of(new FieldError("level", "run " + id + " has no concurrency sweep figures at level "
                    + level + " (its sweep ids: sweep.<level>.<metric>; GET /api/runs/" + id + "/result.json lists its levels)")));
        }
        for (var entry : run.figures().entrySet()) {
            if (level != null && !atLevel(entry.getKey(), level)) {
                continue;
            }
            BaselineFigures b = base.figures().get(entry.getKey());
            Long runNs = pick.apply(entry.getValue());
            Long baseNs = b == null ? null : pick.apply(b);
            if (runNs == null || baseNs == null || baseNs == 0) {
                continue;
            }
            double ratio = (double) runNs / baseNs;
            checks.add(new CheckResult.MetricCheck(entry.getKey(), runNs, baseNs, ratio, ratio <= threshold));
        }
        if (checks.isEmpty()) {
            throw new InvalidRequestException(List.of(new FieldError("baseline",
                    "has no " + statistic + " figure for any metric run " + id + " measured")));
        }
        boolean pass = checks.stream().allMatch(CheckResult.MetricCheck::pass);
        return new CheckResult(id, baseline, threshold, statistic, pass ? "pass" : "fail", checks);
    }

    private static boolean atLevel(String metric, int level) {
        return Metric.parse(metric).filter(m -> m instanceof Sweep s && s.level() == level).isPresent();
    }
}
