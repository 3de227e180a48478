package dev.spacebench.compare;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/runs/{id}/check?baseline=NAME[&threshold=1.10]}: a machine-readable pass or fail (threshold
 * optional: {@link CheckService#DEFAULT_THRESHOLD}, the command line's default too);
 * {@code &level=8} checks only a concurrency sweep's figures at that level.
 */
@RestController
@Tag(name = "compare")
class CheckController {

    private final CheckService checks;

    CheckController(CheckService checks) {
        this.checks = checks;
    }

    @GetMapping("/api/runs/{id}/check")
    @Operation(summary = "Pass or fail per metric: the run's figure ≤ threshold × the baseline's (default "
            + CheckService.DEFAULT_THRESHOLD_TEXT + ": up to 10% slower passes, as bench --baseline)")
    CheckResult check(@PathVariable long id, @RequestParam String baseline,
                      @RequestParam(defaultValue = CheckService.DEFAULT_THRESHOLD_TEXT) double threshold,
                      @RequestParam(defaultValue = "p50") String statistic, @RequestParam(required = false) Integer level) {
        return checks.check(id, baseline, threshold, statistic, level);
    }
}
