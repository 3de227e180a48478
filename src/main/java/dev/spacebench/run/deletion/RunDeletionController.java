package dev.spacebench.run.deletion;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** DELETE /api/runs/{id}: its own controller so that the runs API stays as it is. */
@RestController
@Tag(name = "runs")
public class RunDeletionController {

    private final RunDeletion deletion;

    public RunDeletionController(RunDeletion deletion) {
        this.deletion = deletion;
    }

    @DeleteMapping("/api/runs/{id}")
    @Operation(summary = "Delete a finished run with its samples and results",
            description = "Answers 204; 404 if there is no such run; 409 if it is QUEUED or RUNNING or answers a published benchmark.")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        deletion.delete(id);
        return ResponseEntity.noContent().build();
    }
}
