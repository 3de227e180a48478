package dev.spacebench.benchmark;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The benchmarks REST API: publish a run under a slug, read, unpublish. */
@RestController
@RequestMapping("/api/benchmarks")
@Tag(name = "benchmarks", description = "Publish SUCCEEDED runs as the answer to a named question")
public class BenchmarkController {

    private final BenchmarkService service;

    public BenchmarkController(BenchmarkService service) {
        this.service = service;
    }

    @PostMapping(consumes = "application/json")
    @Operation(summary = "Publish a run under a slug", description = "Body {\"slug\": \"command-round-trip-sandbox\", \"runId\": 7}, "
            + "optional question (≤ 500 characters) and summary (≤ 2000). The slug's previous run moves into its history. "
            + "400 naming the field; 404 if the run does not exist; 409 if it did not succeed.")
    public ResponseEntity<BenchmarkView> publish(@RequestBody BenchmarkService.PublishRequest request) {
        BenchmarkView view = service.publish(request);
        return ResponseEntity.created(URI.create("/api/benchmarks/" + view.slug())).body(view);
    }

    @GetMapping
    @Operation(summary = "Every benchmark, by slug")
    public List<BenchmarkView> list() {
        return service.list();
    }

    @GetMapping("/{slug}")
    @Operation(summary = "One benchmark with its history, newest first")
    public BenchmarkView get(@PathVariable String slug) {
        return service.get(slug);
    }

    @DeleteMapping("/{slug}")
    @Operation(summary = "Unpublish a benchmark", description = "Its runs stay, and can then be deleted. Answers 204.")
    public ResponseEntity<Void> unpublish(@PathVariable String slug) {
        service.unpublish(slug);
        return ResponseEntity.noContent().build();
    }
}
