package dev.spacebench.run;

import dev.spacebench.request.PageArguments;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The runs REST API. Errors are RFC 9457 problem+json naming the field (see {@code system.ApiProblems}). */
@RestController
@RequestMapping("/api/runs")
@Tag(name = "runs", description = "Queue benchmark runs and read their status and figures")
public class RunController {

    private final RunService service;
    private final RunLinks exporters;

    public RunController(RunService service, RunLinks exporters) {
        this.service = service;
        this.exporters = exporters;
    }

    @PostMapping(consumes = "application/json")
    @Operation(summary = "Queue a run", description = "Any part of the plan left out takes the published default. "
            + "Answers 201 with the run and its Location.")
    public ResponseEntity<RunView> create(@RequestBody RunRequest request) {
        Run run = service.submit(request);
        return ResponseEntity.created(URI.create("/api/runs/" + run.getId())).body(view(run));
    }

    @GetMapping
    @Operation(summary = "List runs, newest first", description = "Optional filters: kind (a known kind), status, and from/to "
            + "(UTC days, yyyy-MM-dd, both inclusive) on the creation time, testbed. page from 0 to 1000000, size from 1 to 200.")
    public RunPage list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size,
                        @RequestParam(required = false) String kind, @RequestParam(required = false) String status,
                        @RequestParam(required = false) String from, @RequestParam(required = false) String to,
                        @RequestParam(required = false) String testbed) {
        PageArguments.check(page, size, PageArguments.MAX_SIZE);
        Page<Run> runs = service.list(RunFilter.parse(service.listedKinds(), kind, status, from, to, testbed), page, size);
        return new RunPage(runs.getContent().stream().map(this::view).toList(), runs.getNumber(), runs.getSize(),
                runs.getTotalElements(), runs.getTotalPages());
    }

    @GetMapping("/{id}")
    @Operation(summary = "A run's status, progress and figures so far")
    public RunView get(@PathVariable long id) {
        return view(service.get(id));
    }

    @PostMapping("/{id}/cancel")
    @Operation(summary = "Cancel a queued or running run", description = "A running run stops at its next iteration and keeps its samples.")
    public RunView cancel(@PathVariable long id) {
        return view(service.cancel(id));
    }

    private RunView view(Run run) {
        List<MetricResult> results = service.results(run.getId());
        return RunView.of(run, results, exporters.links(run.getId(), results));
    }

    /** One page of runs. */
    public record RunPage(List<RunView> content, int page, int size, long totalElements, int totalPages) {
    }
}
