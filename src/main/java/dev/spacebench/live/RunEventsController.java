package dev.spacebench.live;

import dev.spacebench.run.RunService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Live progress as server-sent events ({@code text/event-stream}). Each event is named
 * {@code run}, has the run id as its id, and a {@link LiveRun} as JSON data.
 */
@RestController
@ConditionalOnWebApplication
@Tag(name = "events", description = "Live progress as server-sent events")
public class RunEventsController {

    private final RunEventHub hub;
    private final RunService runs;

    public RunEventsController(RunEventHub hub, RunService runs) {
        this.hub = hub;
        this.runs = runs;
    }

    @GetMapping(value = "/api/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Every queued and running run: its state now, at each change, and its final state")
    public SseEmitter all() {
        return hub.all();
    }

    @GetMapping(value = "/api/runs/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "One run: its state now and at each change; the stream ends after its final state",
            description = "404 problem+json if there is no such run.")
    public SseEmitter one(@PathVariable long id) {
        runs.get(id);
        return hub.one(id);
    }
}
