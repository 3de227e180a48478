package dev.spacebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The metrics a plan produces, written out by hand from the plan's parts. */
class PlanMetricsTest {

    private static final Plan PLAN = new Plan(new ExecPlan(List.of("sh_c", "noop"), 30, 2, 0),
            new FilePlan(List.of(new FileSize(1L << 20, 7), new FileSize(4096L, 3)), 1, 2L << 20, 1 << 20),
            new FloorPlan(true, 10, 1), 1, new ConcurrencyPlan(List.of(1, 4), List.of("true"), 5, 4096L, 2));

    @Test
    void everyMetricInResultOrderWithTheSweepLevelByLevel() {
        assertThat(PlanMetrics.metrics(PLAN)).extracting(Metric::id).containsExactly(
                "space.ready", "space.ready.create", "space.ready.agent", "space.ready.ping",
                "exec.sh_c", "exec.noop",
                "file.upload.1MiB", "file.download.1MiB", "file.upload.4KiB", "file.download.4KiB",
                "space.delete",
                "floor.timer", "floor.spawn.true", "floor.spawn.sh_c", "floor.hyperfine.true", "floor.grpc.noop", "floor.hyperfine.sh_c",
                "sweep.1.space.ready", "sweep.1.exec.true", "sweep.1.file.upload.4KiB", "sweep.1.file.download.4KiB", "sweep.1.space.delete",
                "sweep.4.space.ready", "sweep.4.exec.true", "sweep.4.file.upload.4KiB", "sweep.4.file.download.4KiB", "sweep.4.space.delete");
    }

    @Test
    void theLoopsCarryTheirPlannedN() {
        assertThat(PlanMetrics.loops(PLAN)).extracting(l -> l.metric().id() + "×" + l.n()).containsExactly(
                "exec.sh_c×30", "exec.noop×30", "file.upload.1MiB×7", "file.download.1MiB×7", "file.upload.4KiB×3", "file.download.4KiB×3");
    }

    @Test
    void noSweepNoSweepMetricsAndAnEmptyPlanStillHasItsSpaceAndFloor() {
        Plan empty = new Plan(new ExecPlan(List.of(), 1, 0, 0), new FilePlan(List.of(), 0, 1L, 1), new FloorPlan(false, 1, 0));
        assertThat(PlanMetrics.metrics(empty)).extracting(Metric::id).containsExactly(
                "space.ready", "space.ready.create", "space.ready.agent", "space.ready.ping", "space.delete",
                "floor.timer", "floor.spawn.true", "floor.spawn.sh_c", "floor.hyperfine.true", "floor.grpc.noop", "floor.hyperfine.sh_c");
    }

    @Test
    void aPlanThatSkippedValidationIsRefusedNamingTheName() {
        Plan unchecked = new Plan(new ExecPlan(List.of("noop", "bash"), 1, 0, 0), new FilePlan(List.of(), 0, 1L, 1));
        assertThatThrownBy(() -> PlanMetrics.exec(unchecked)).isInstanceOf(IllegalStateException.class).hasMessageContaining("'bash'");
    }
}
