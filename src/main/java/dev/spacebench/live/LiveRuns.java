package dev.spacebench.live;

import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import java.util.List;
import org.springframework.stereotype.Component;

/** Reads runs as {@link LiveRun}s, and tells cheaply whether a run has changed since it was last sent. */
@Component
public class LiveRuns {

    private final RunService runs;

    public LiveRuns(RunService runs) {
        this.runs = runs;
    }

    public LiveRun of(Run run) {
        return LiveRun.of(run, runs.results(run.getId()));
    }

    /** QUEUED and RUNNING runs, oldest first. */
    public List<LiveRun> active() {
        return runs.active().stream().map(this::of).toList();
    }

    /**
     * Everything a {@link LiveRun} shows that can change, from the run row alone: figures only
     * change at a metric's end, which moves the progress too, so no results query is needed to
     * see that nothing changed.
     */
    static String fingerprint(Run run) {
        return run.getStatus() + "|" + run.getProgressDone() + "|" + run.getProgressMetric() + "|" + run.getProgressPhase()
                + "|" + run.getProgressIteration() + "|" + run.isCancelRequested();
    }
}
