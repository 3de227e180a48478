package dev.spacebench.publish;

import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.request.PageArguments;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunFilter;
import dev.spacebench.database.DatabaseSize;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStatus;
import dev.spacebench.space.Spaces;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.http.HttpStatus;
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
    private final Plots plots;
    private final RunSummaries summaries;
    private final Spaces spaces;
    private final DatabaseSize database;

    public PageController(RunService runs, RunReportBuilder reports, Plots plots, RunSummaries summaries, Spaces spaces,
                          DatabaseSize database) {
        this.database = database;
        this.runs = runs;
        this.reports = reports;
        this.plots = plots;
        this.summaries = summaries;
        this.spaces = spaces;
    }

    /**
     * The runs list, newest first, filtered by kind, status, UTC days created (from/to, both
     * inclusive) and testbed. A filter that cannot be read answers 400 with the list empty and each error
     * beside its input.
     */
    @GetMapping("/runs")
    public String list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size,
                       @RequestParam(required = false) String kind, @RequestParam(required = false) String status,
                       @RequestParam(required = false) String from, @RequestParam(required = false) String to,
                       @RequestParam(required = false) String testbed, Model model, HttpServletResponse response) {
        PageArguments.check(page, size, PageArguments.MAX_SIZE);
        RunListQuery query = new RunListQuery(kind, status, from, to, testbed);
        model.addAttribute("query", query);
        model.addAttribute("kinds", runs.listedKinds());
        model.addAttribute("statuses", RunStatus.values());
        model.addAttribute("testbeds", runs.listedTestbeds());
        Page<Run> result;
        try {
            result = runs.list(RunFilter.parse(runs.listedKinds(), kind, status, from, to, testbed), page, size);
            model.addAttribute("errors", Map.of());
        } catch (InvalidRequestException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            result = Page.empty(PageRequest.of(page, size));
            model.addAttribute("errors", e.errors().stream()
                    .collect(Collectors.toMap(FieldError::field, FieldError::message, (a, b) -> a + "; " + b)));
        }
        model.addAttribute("runs", result.getContent().stream().map(summaries::of).toList());
        DatabaseSize.Size held = database.now();
        model.addAttribute("database", held.runs() + " runs, " + held.samples() + " samples"
                + (held.bytes() == null ? "" : ", " + Format.significant(held.bytes() / (double) (1L << 20)) + " MiB on disk"));
        model.addAttribute("page", result);
        model.addAttribute("newer", result.hasPrevious() ? query.link(page - 1, size) : null);
        model.addAttribute("older", result.hasNext() ? query.link(page + 1, size) : null);
        return "runs";
    }

    @GetMapping("/runs/{id}")
    public String run(@PathVariable long id, Model model) {
        RunReport report = reports.build(id);
        model.addAttribute("r", report);
        model.addAttribute("svgs", plots.svgs(id));
        return "run";
    }
}
