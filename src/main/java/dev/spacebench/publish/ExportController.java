package dev.spacebench.publish;

import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.RunService;
import dev.spacebench.run.samples.SampleCsv;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A run's downloads, one per {@link dev.spacebench.publish.export.RunExporter} bean: samples.csv,
 * result.json, page.md, bmf.json and one HdrHistogram log per metric at hlog/METRIC.hlog.
 */
@RestController
@RequestMapping("/api/runs/{id}")
@Tag(name = "exports", description = "A run's raw samples, figures and page")
public class ExportController {

    private final RunService runs;
    private final RunExporters exporters;

    public ExportController(RunService runs, RunExporters exporters) {
        this.runs = runs;
        this.exporters = exporters;
    }

    @GetMapping("/{file:[\\w.-]+\\.\\w+}")
    @Operation(summary = "One of the run's files: samples.csv (every sample, one row each: " + SampleCsv.HEADER + "), "
            + "result.json (plan, environment, build and per-metric figures, schema spacebench.result/v1), page.md (the "
            + "published page as Markdown), bmf.json (Bencher Metric Format: latency in ns, p50 with its 95% CI as bounds, "
            + "and file throughput in MiB/s, measure mib-per-second); the run's links list them")
    public void file(@PathVariable long id, @PathVariable String file, HttpServletResponse response) throws IOException {
        serve(id, file, response);
    }

    @GetMapping("/{folder:\\w+}/{file:[\\w.-]+\\.\\w+}")
    @Operation(summary = "A per-metric file, e.g. hlog/exec.noop.hlog: one metric's measured samples as an HdrHistogram log "
            + "(HistogramLogProcessor reads it)")
    public void fileInFolder(@PathVariable long id, @PathVariable String folder, @PathVariable String file,
                             HttpServletResponse response) throws IOException {
        serve(id, folder + "/" + file, response);
    }

    private void serve(long id, String path, HttpServletResponse response) throws IOException {
        runs.get(id);
        var results = runs.results(id);
        RunExporters.Found found = exporters.find(id, results, path).orElseThrow(() -> new ResponseStatusException(
                HttpStatus.NOT_FOUND, "run " + id + " has no file '" + path + "'; its files are "
                + exporters.files(id, results).stream().map(f -> f.file().path()).collect(Collectors.joining(", "))));
        response.setContentType(found.exporter().mediaType().toString());
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"spacebench-run-" + id + "-" + found.file().name() + "\"");
        // Written straight to the response: a million-sample samples.csv never sits in memory whole.
        OutputStream out = response.getOutputStream();
        found.exporter().write(id, found.file(), out);
        out.flush();
    }
}
