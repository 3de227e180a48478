package dev.spacebench.baseline;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Baselines: name a run, import a result.json, list, read, delete. */
@RestController
@RequestMapping("/api/baselines")
@Tag(name = "baselines", description = "Named figures to compare and check runs against")
class BaselineController {

    private final BaselineService service;

    BaselineController(BaselineService service) {
        this.service = service;
    }

    /** What the API shows of a baseline. */
    public record BaselineView(String name, String label, String source, Long runId, boolean hasSamples, String note,
                               List<BaselineFigures> figures, Instant createdAt) {
    }

    /** @param runId the finished run whose figures (and raw samples) become the baseline */
    public record FromRun(String name, Long runId, String label) {
    }

    @GetMapping
    @Operation(summary = "Every baseline, newest first (the published Cua figures are built in)")
    List<BaselineView> list() {
        return service.list().stream().map(this::view).toList();
    }

    @GetMapping("/{name}")
    BaselineView get(@PathVariable String name) {
        return view(service.get(name, "name"));
    }

    @PostMapping(consumes = "application/json")
    @Operation(summary = "Name a SUCCEEDED run as a baseline: {\"name\": \"laptop-process\", \"runId\": 7}")
    ResponseEntity<BaselineView> fromRun(@RequestBody FromRun request) {
        if (request.runId() == null) {
            throw new dev.spacebench.request.InvalidRequestException(List.of(new dev.spacebench.request.FieldError("runId",
                    "is required: the id of a SUCCEEDED run")));
        }
        Baseline baseline = service.fromRun(request.name(), request.runId(), request.label());
        return ResponseEntity.created(URI.create("/api/baselines/" + baseline.getName())).body(view(baseline));
    }

    @PostMapping(value = "/import", consumes = "application/json")
    @Operation(summary = "Import a result.json (the body) as a summary-only baseline named by ?name=")
    ResponseEntity<BaselineView> importResult(@RequestParam String name, @RequestParam(required = false) String label,
                                              @RequestBody JsonNode resultJson) {
        Baseline baseline = service.importResult(name, label, resultJson);
        return ResponseEntity.created(URI.create("/api/baselines/" + baseline.getName())).body(view(baseline));
    }

    @DeleteMapping("/{name}")
    @Operation(summary = "Delete a baseline named or imported here; 409 for a built-in one")
    ResponseEntity<Void> delete(@PathVariable String name) {
        service.delete(name);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler(BuiltInBaselineException.class)
    ProblemDetail builtIn(BuiltInBaselineException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Built-in baselines cannot be deleted");
        return problem;
    }

    private BaselineView view(Baseline b) {
        return new BaselineView(b.getName(), b.getLabel(), b.getSource().name().toLowerCase(), b.getRunId(),
                b.getSource().hasSamples(), b.getNote(), service.figures(b), b.getCreatedAt());
    }
}
