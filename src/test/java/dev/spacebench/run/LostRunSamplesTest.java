package dev.spacebench.run;

import dev.spacebench.run.samples.SampleBatches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A worker's batches of samples go into its run only while the run is RUNNING and its own: once
 * another app has ended it (a lost lease), what the worker still takes is dropped and its loops stop.
 * Counted in the database, not through the recorder.
 */
class LostRunSamplesTest extends AppTestSupport {

    // A kind no worker makes: the app's own worker must not claim the run first.
    private static final String UNMADE = "kind-no-worker-makes";

    @Autowired
    RunRepository runs;
    @Autowired
    SampleBatches batches;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void samplesTakenAfterTheRunWasInterruptedAreNotSaved() {
        long id = runs.save(new Run(UNMADE, new SpaceSpec(UNMADE, null, null), Plans.quick(), 10, Instant.now())).getId();
        assertThat(runs.claim(id, "worker-a", Instant.now())).isEqualTo(1);
        RunRecorder recorder = new RunRecorder(id, "worker-a", batches, runs, () -> false);

        take(recorder, 1, 700); // one batch of 500 written, 200 pending
        recorder.flush();
        assertThat(count(id)).isEqualTo(700);
        assertThat(recorder.cancelRequested()).isFalse();

        // Another app found the lease run out.
        jdbc.update("UPDATE run SET status = 'INTERRUPTED', finished_at = CURRENT_TIMESTAMP WHERE id = ?", id);
        take(recorder, 701, 600);
        recorder.flush();
        assertThat(count(id)).as("samples of the INTERRUPTED run").isEqualTo(700);
        assertThat(recorder.cancelRequested()).as("the loops stop").isTrue();
        assertThat(recorder.savedCount()).as("a count that is not the run's").isNull();
    }

    @Test
    void aRunClaimedByAnotherWorkerTakesNoneOfThisWorkersSamples() {
        long id = runs.save(new Run(UNMADE, new SpaceSpec(UNMADE, null, null), Plans.quick(), 10, Instant.now())).getId();
        assertThat(runs.claim(id, "worker-b", Instant.now())).isEqualTo(1);
        RunRecorder recorder = new RunRecorder(id, "worker-a", batches, runs, () -> false);
        take(recorder, 1, 10);
        recorder.flush();
        assertThat(count(id)).isZero();
    }

    private static void take(RunRecorder recorder, int from, int n) {
        for (int i = from; i < from + n; i++) {
            recorder.sample(new Sample("exec.noop", i, Phase.MEASURED, 1000 + i, 0, true, null));
        }
    }

    private long count(long id) {
        return jdbc.queryForObject("SELECT count(*) FROM sample WHERE run_id = ?", Long.class, id);
    }
}
