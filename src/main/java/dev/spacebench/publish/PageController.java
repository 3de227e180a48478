package dev.spacebench.publish;

import dev.spacebench.run.Run;
import dev.spacebench.run.RunController;
import dev.spacebench.run.RunService;
import dev.spacebench.run.PageArguments;
import org.springframework.data.domain.Page;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** Server-rendered pages: the runs list and each run's published page. */
@Controller
public class PageController {

    private final RunService runs;
    private final RunReportBuilder reports;
    private final RunSummaries summaries;

    public PageController(RunService runs, RunReportBuilder reports, RunSummaries summaries) {
        this.runs = runs;
        this.reports = reports;
        this.summaries = summaries;
    }

    @GetMapping("/runs")
    public String list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size, Model model) {
        PageArguments.check(page, size, RunController.MAX_PAGE_SIZE);
        Page<Run> result = runs.list(page, size);
        model.addAttribute("runs", result.getContent().stream().map(summaries::of).toList());
        model.addAttribute("page", result);
        return "runs";
    }

    @GetMapping("/runs/{id}")
    public String run(@PathVariable long id, Model model) {
        model.addAttribute("r", reports.build(id));
        return "run";
    }
}
