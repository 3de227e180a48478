package dev.spacebench.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlanValidatorTest {

    private static final PlanLimits LIMITS = new PlanLimits(1L << 30);

    @Test
    void publishedDefaultsAreValid() {
        Plan plan = Plans.published();
        assertThat(plan.exec().n()).isEqualTo(300);
        assertThat(plan.exec().warmups()).isEqualTo(5);
        assertThat(plan.files().sizes()).extracting(FileSize::n).containsExactly(20, 20, 10, 10, 5);
        assertThat(PlanValidator.check(plan, new PlanLimits(4L << 30), "plan")).isEmpty();
    }

    @Test
    void namesEveryBadFieldWithItsRange() {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("true", "bogus", "true"), 0, -1),
                new FilePlan(List.of(new FileSize(0L, 1), new FileSize(2L << 30, 2_000_000)), null, -5L, 100)));
        List<PlanProblem> errors = PlanValidator.check(plan, LIMITS, "plan");
        assertThat(errors).extracting(PlanProblem::field).containsExactly(
                "plan.exec.metrics[1]", "plan.exec.metrics[2]", "plan.exec.n", "plan.exec.warmups",
                "plan.files.sizes[0].bytes", "plan.files.sizes[1].bytes", "plan.files.sizes[1].n",
                "plan.files.bulkThresholdBytes", "plan.files.chunkBytes");
        assertThat(errors.get(2).message()).isEqualTo("must be from 1 to 1000000, was 0");
        assertThat(errors.get(0).message()).contains("[noop, true, sh_c]").contains("'bogus'");
        assertThat(errors.get(5).message()).contains("from 1 to 1073741824");
    }

    @Test
    void aPlanWithNothingToMeasureIsRefused() {
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of(), null, null), new FilePlan(List.of(), null, null, null)));
        assertThat(PlanValidator.check(plan, LIMITS, "plan")).extracting(PlanProblem::field).containsExactly("plan");
    }

    @Test
    void aPlanOverTheSamplesARunMayTakeIsRefusedNamingTheLimit() {
        // 3 × (1,000,000 + 10,000) exec + 2 × (1,000,000 + 0) file + 1 + 4 × (1,000,000 + 0) floor + 2 Space samples.
        Plan plan = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "true", "sh_c"), 1_000_000, 10_000),
                new FilePlan(List.of(new FileSize(1L, 1_000_000)), 0, null, null), new FloorPlan(true, 1_000_000, 0)));
        List<PlanProblem> errors = PlanValidator.check(plan, LIMITS, "plan");
        assertThat(errors).extracting(PlanProblem::field).containsExactly("plan");
        assertThat(errors.get(0).message()).startsWith("would take 9030003 samples and a run may take at most 8000000");

        Plan fits = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "true", "sh_c"), 1_000_000, 0),
                new FilePlan(List.of(), 0, null, null), new FloorPlan(true, 1_000_000, 0)));
        assertThat(PlanValidator.check(fits, LIMITS, "plan")).isEmpty();
    }
}
