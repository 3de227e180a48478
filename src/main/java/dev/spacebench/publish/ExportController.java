package dev.spacebench.publish;

import dev.spacebench.publish.export.BencherMetricFormat;
import dev.spacebench.publish.export.HistogramLog;
import dev.spacebench.publish.export.PageMarkdown;
import dev.spacebench.publish.export.ResultDocument;
import dev.spacebench.publish.export.ResultJson;
import dev.spacebench.publish.export.SamplesCsv;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunJson;
import dev.spacebench.run.RunSample;
import dev.spacebench.run.RunSampleRepository;
import dev.spacebench.run.RunService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** A run's downloads: samples.csv, result.json and the page as Markdown. */
@RestController
@RequestMapping("/api/runs/{id}")
@Tag(name = "exports", description = "A run's raw samples, figures and page")
public class ExportController {

    private final RunService runs;
    private final RunSampleRepository samples;
    private final RunReportBuilder reports;
    private final RunJson json;

    public ExportController(RunService runs, RunSampleRepository samples, RunReportBuilder reports, RunJson json) {
        this.runs = runs;
        this.samples = samples;
        this.reports = reports;
        this.json = json;
    }

    @GetMapping(value = "/samples.csv", produces = "text/csv")
    @Operation(summary = "Every sample, one row each: metric,iteration,phase,ns,bytes,ok,error")
    @Transactional(readOnly = true)
    public void samplesCsv(@PathVariable long id, HttpServletResponse response) throws IOException {
        runs.get(id);
        response.setContentType("text/csv;charset=UTF-8");
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"spacebench-run-" + id + "-samples.csv\"");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // Streamed from the database, so a run with millions of samples never sits in memory whole.
        try (Stream<RunSample> rows = samples.streamByRunIdOrderByIdAsc(id); Writer out = response.getWriter()) {
            SamplesCsv.write(rows.iterator(), out);
        }
    }

    @GetMapping(value = "/result.json", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Plan, environment, build and per-metric figures (schema spacebench.result/v1)")
    public ResultDocument resultJson(@PathVariable long id) {
        return ResultJson.of(reports.build(id), runs.results(id), json);
    }

    @GetMapping(value = "/bmf.json", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Bencher Metric Format: latency (ns, p50 with its 95% CI as bounds) and file throughput (MiB/s, measure mib-per-second)")
    public Map<String, Map<String, Map<String, Double>>> bencher(@PathVariable long id) {
        runs.get(id);
        return BencherMetricFormat.of(runs.results(id), json::intervals);
    }

    @GetMapping(value = "/hlog/{metric}.hlog", produces = MediaType.TEXT_PLAIN_VALUE)
    @Operation(summary = "One metric's measured samples as an HdrHistogram log (HistogramLogProcessor reads it)")
    public ResponseEntity<String> histogramLog(@PathVariable long id, @PathVariable String metric) {
        Run run = runs.get(id);
        MetricResult result = runs.results(id).stream().filter(r -> r.getMetric().equals(metric) && r.getHistogram() != null)
                .findFirst().orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                        "run " + id + " has no histogram for '" + metric + "'"));
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN)
                .header(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"spacebench-run-" + id + "-" + metric + ".hlog\"")
                .body(HistogramLog.write(run, result));
    }

    @GetMapping(value = "/page.md", produces = "text/markdown;charset=UTF-8")
    @Operation(summary = "The run's published page as Markdown")
    public ResponseEntity<String> pageMarkdown(@PathVariable long id) {
        return ResponseEntity.ok().contentType(MediaType.parseMediaType("text/markdown;charset=UTF-8"))
                .body(PageMarkdown.render(reports.build(id)));
    }
}
