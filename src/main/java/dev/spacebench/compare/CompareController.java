package dev.spacebench.compare;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * {@code /compare?runs=A,B} and {@code /compare?run=A&baseline=NAME}: per metric both p50s, their
 * ratio and whether the difference is significant, and both environments side by side. With a
 * baseline, the baseline is side a and the run side b, so the ratio reads "run / baseline".
 */
@Controller
@Tag(name = "compare", description = "Compare two runs, or a run with a baseline")
class CompareController {

    private final CompareService comparisons;

    CompareController(CompareService comparisons) {
        this.comparisons = comparisons;
    }

    @GetMapping("/compare")
    String page(@RequestParam(required = false) String runs, @RequestParam(required = false) Long run,
                @RequestParam(required = false) String baseline, @RequestParam(required = false) Integer entry, Model model) {
        model.addAttribute("c", comparisons.compare(runs, run, baseline, entry));
        return "compare";
    }

    @GetMapping(value = "/api/compare", produces = "application/json")
    @ResponseBody
    @Operation(summary = "The comparison as JSON (same parameters as the /compare page)")
    Comparison json(@RequestParam(required = false) String runs, @RequestParam(required = false) Long run,
                    @RequestParam(required = false) String baseline, @RequestParam(required = false) Integer entry) {
        return comparisons.compare(runs, run, baseline, entry);
    }
}
