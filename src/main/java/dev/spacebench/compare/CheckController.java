package dev.spacebench.compare;

import dev.spacebench.baseline.BaselineFigures;
import dev.spacebench.plan.FieldError;
import dev.spacebench.plan.InvalidRequestException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/runs/{id}/check?baseline=NAME&threshold=1.10}: a machine-readable pass or fail. */
@RestController
@Tag(name = "compare")
public class CheckController {

    public static final double MAX_THRESHOLD = 1000;

    private final Sides sides;

    public CheckController(Sides sides) {
        this.sides = sides;
    }

    @GetMapping("/api/runs/{id}/check")
    @Operation(summary = "Pass or fail per metric: the run's figure ≤ threshold × the baseline's (e.g. 1.10 = up to 10% slower passes)")
    public CheckResult check(@PathVariable long id, @RequestParam String baseline, @RequestParam double threshold,
                             @RequestParam(defaultValue = "p50") String statistic) {
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
        for (var entry : run.figures().entrySet()) {
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
}
