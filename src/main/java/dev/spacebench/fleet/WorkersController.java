package dev.spacebench.fleet;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/workers}: every registered worker, its testbed's facts, kinds, last heartbeat and current run. */
@RestController
public class WorkersController {

    private final Workers workers;

    public WorkersController(Workers workers) {
        this.workers = workers;
    }

    @GetMapping("/api/workers")
    public List<WorkerView> workers() {
        return workers.list();
    }
}
