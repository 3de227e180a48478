package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.run.RunService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Each plot at its own URL, as standalone SVG (works in Markdown, in the page and without JavaScript). */
@RestController
@RequestMapping("/api/runs/{id}/plots")
@Tag(name = "exports")
public class PlotController {

    private static final MediaType SVG = MediaType.parseMediaType("image/svg+xml");

    private final RunService runs;
    private final Plots plots;

    public PlotController(RunService runs, Plots plots) {
        this.runs = runs;
        this.plots = plots;
    }

    @GetMapping("/throughput.svg")
    @Operation(summary = "MiB/s by file size, upload and download, lane marked")
    public ResponseEntity<String> throughput(@PathVariable long id) {
        runs.get(id);
        return plots.throughput(id).map(svg -> ResponseEntity.ok().contentType(SVG).body(svg))
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "run " + id + " has no file figures to plot"));
    }

    @GetMapping("/{metric}.svg")
    @Operation(summary = "Latency by percentile for an exec metric (exec.noop, exec.true, exec.sh_c); "
            + "a concurrency sweep's sweep.latency and sweep.rate; an interleaved run's drift (block medians against time)")
    public ResponseEntity<String> latency(@PathVariable long id, @PathVariable String metric) {
        runs.get(id);
        return plots.latency(id, metric).or(() -> plots.sweep(id, metric)).or(() -> plots.drift(id, metric)).map(svg -> ResponseEntity.ok().contentType(SVG).body(svg))
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "run " + id + " has no measured samples of '" + metric
                        + "' to plot; exec metrics are " + String.join(", ", ExecRoundTrip.ids())
                        + ", a concurrency sweep's plots sweep.latency and sweep.rate, an interleaved run's drift"));
    }
}
