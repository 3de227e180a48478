package dev.spacebench.run.deletion;

import dev.spacebench.run.Run;
import dev.spacebench.run.RunNotFoundException;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStateException;
import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Deletes a finished run with its results and samples (the database cascades), unless something keeps it. */
@Service
public class RunDeletion {

    private final RunService runs;
    private final RunRepository repository;
    private final List<RunDeletionGuard> guards;

    public RunDeletion(RunService runs, RunRepository repository, List<RunDeletionGuard> guards) {
        this.runs = runs;
        this.repository = repository;
        this.guards = guards;
    }

    /**
     * @throws RunNotFoundException if there is no such run
     * @throws RunStateException if the run is QUEUED or RUNNING, or a guard keeps it (published)
     */
    @Transactional
    public void delete(long id) {
        Run run = runs.get(id);
        if (!run.getStatus().finished()) {
            throw new RunStateException("run " + id + " is " + run.getStatus() + "; cancel it first, then delete it");
        }
        for (RunDeletionGuard guard : guards) {
            String why = guard.whyKept(id);
            if (why != null) {
                throw new RunStateException("run " + id + " cannot be deleted: " + why);
            }
        }
        repository.delete(run);
    }
}
