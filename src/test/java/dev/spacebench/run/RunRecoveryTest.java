package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A run left RUNNING by an app that stopped is INTERRUPTED at the next start; other workers' runs are left alone. */
class RunRecoveryTest extends AppTestSupport {

    @Autowired
    RunRepository runs;
    @Autowired
    RunWorker worker;
    @Autowired
    RunSampleRepository samples;

    private static final String UNMADE = "kind-no-worker-makes";

    @Test
    void runsThisWorkerLeftRunningBecomeInterrupted() throws Exception {
        // A kind no worker makes: the app's own worker, polling all along, must not claim these
        // runs before the test does (it did now and then with "process").
        SpaceSpec spec = new SpaceSpec(UNMADE, null, null);
        Plan plan = Plans.quick();
        Run mine = runs.save(new Run(UNMADE, spec, plan, 10, Instant.now()));
        Run theirs = runs.save(new Run(UNMADE, spec, plan, 10, Instant.now()));
        // Claim both as if two machines had taken them and then stopped.
        assertThat(runs.claim(mine.getId(), worker.workerId(), Instant.now())).isEqualTo(1);
        assertThat(runs.claim(theirs.getId(), "another-machine", Instant.now())).isEqualTo(1);

        // Samples it saved before the app was killed in its first metric: no figures were stored.
        samples.saveAll(java.util.List.of(new RunSample(mine.getId(), "exec.noop", 1, "measured", 1000, 0, true, null),
                new RunSample(mine.getId(), "exec.noop", 2, "measured", 900, 0, true, null),
                new RunSample(mine.getId(), "exec.noop", 3, "measured", 1100, 0, true, null)));

        worker.interruptLeftovers();

        Run after = runs.findById(mine.getId()).orElseThrow();
        assertThat(after.getStatus()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(after.getFailureReason()).contains("the app stopped while this run was RUNNING");
        assertThat(after.getFinishedAt()).isNotNull();
        assertThat(runs.findById(theirs.getId()).orElseThrow().getStatus()).isEqualTo(RunStatus.RUNNING);
        // Its page says the figures were never computed, not that nothing succeeded, and where the samples are.
        String page = get("/runs/" + mine.getId()).body();
        assertThat(page).contains("This run ended INTERRUPTED before its figures were computed (the app stopped while this run "
                + "was RUNNING (found at the next start)); the 3 samples it took are kept in samples.csv.")
                .doesNotContain("before any round trip succeeded");
        // A second claim of the same run fails: no run is measured twice.
        assertThat(runs.claim(theirs.getId(), worker.workerId(), Instant.now())).isZero();
    }
}
