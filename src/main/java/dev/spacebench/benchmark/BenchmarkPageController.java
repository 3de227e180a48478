package dev.spacebench.benchmark;

import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.publish.Plots;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.run.deletion.RunDeletion;
import dev.spacebench.run.RunStateException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.view.RedirectView;

/** "All benchmarks", each benchmark's page, and the run page's Publish and Delete buttons. */
@Controller
public class BenchmarkPageController {

    private final BenchmarkService benchmarks;
    private final RunReportBuilder reports;
    private final Plots plots;
    private final RunDeletion deletion;
    private final BenchmarkPool pools;

    public BenchmarkPageController(BenchmarkService benchmarks, RunReportBuilder reports, Plots plots, RunDeletion deletion,
                                   BenchmarkPool pools) {
        this.benchmarks = benchmarks;
        this.pools = pools;
        this.reports = reports;
        this.plots = plots;
        this.deletion = deletion;
    }

    @GetMapping("/benchmarks")
    public String index(Model model) {
        model.addAttribute("benchmarks", benchmarks.list());
        return "benchmarks";
    }

    @GetMapping("/benchmarks/{slug}")
    public String benchmark(@PathVariable String slug, Model model) {
        BenchmarkView benchmark = benchmarks.get(slug);
        model.addAttribute("benchmark", benchmark);
        model.addAttribute("historySvg", HistoryPlot.svg(benchmark.history()));
        model.addAttribute("pool", pools.of(slug));
        model.addAttribute("r", reports.build(benchmark.runId()));
        model.addAttribute("svgs", plots.svgs(benchmark.runId()));
        return "run";
    }

    /** The run page's Publish form: a slug, optionally a question. */
    @PostMapping("/runs/{id}/publish")
    public RedirectView publish(@PathVariable long id, @RequestParam(required = false) String slug,
                                @RequestParam(required = false) String question) {
        try {
            BenchmarkView view = benchmarks.publish(new BenchmarkService.PublishRequest(slug, id,
                    question == null || question.isBlank() ? null : question, null));
            return see("/benchmarks/" + view.slug());
        } catch (InvalidRequestException e) {
            return see("/runs/" + id + "?problem=" + encode(e.errors().stream().map(f -> f.field() + " " + f.message())
                    .collect(Collectors.joining("; "))));
        } catch (RunStateException e) {
            return see("/runs/" + id + "?problem=" + encode(e.getMessage()));
        }
    }

    /** The run page's Delete button. */
    @PostMapping("/runs/{id}/delete")
    public RedirectView delete(@PathVariable long id) {
        try {
            deletion.delete(id);
            return see("/runs?deleted=" + id);
        } catch (RunStateException e) {
            return see("/runs/" + id + "?problem=" + encode(e.getMessage()));
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static RedirectView see(String url) {
        RedirectView view = new RedirectView(url, true);
        view.setStatusCode(org.springframework.http.HttpStatus.SEE_OTHER);
        return view;
    }
}
