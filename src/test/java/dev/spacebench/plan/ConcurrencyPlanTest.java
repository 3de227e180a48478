package dev.spacebench.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** plan.concurrency: off unless asked, its defaults, and every limit it is refused at, named. */
class ConcurrencyPlanTest {

    private static final PlanLimits LIMITS = new PlanLimits(1L << 30, 64);

    private static Plan sweep(ConcurrencyPlan concurrency) {
        return Plans.withDefaults(new Plan(new ExecPlan(List.of(), 10, 0, 0), new FilePlan(List.of(), 0, null, null),
                new FloorPlan(false, null, null), null, concurrency));
    }

    @Test
    void offUnlessAskedAndThePresetsHaveNone() {
        assertThat(Plans.published().concurrency()).isNull();
        assertThat(Plans.quick().concurrency()).isNull();
        ConcurrencyPlan defaults = sweep(new ConcurrencyPlan(null, null, null, null, null)).concurrency();
        assertThat(defaults).isEqualTo(new ConcurrencyPlan(List.of(1, 2, 4, 8), List.of("sh_c"), 200, null, null));
        assertThat(sweep(new ConcurrencyPlan(null, null, null, 4096L, null)).concurrency().fileN()).isEqualTo(5);
    }

    @Test
    void aSweepAloneIsSomethingToMeasure() {
        assertThat(PlanValidator.check(sweep(new ConcurrencyPlan(List.of(1, 2, 4), List.of("sh_c", "true"), 20, 4096L, 2)),
                LIMITS, "plan")).isEmpty();
    }

    @Test
    void levelsOverTheConfiguredMaximumAreRefusedNamingIt() {
        List<PlanProblem> errors = PlanValidator.check(sweep(new ConcurrencyPlan(List.of(1, 64, 65), null, null, null, null)),
                LIMITS, "plan");
        assertThat(errors).extracting(PlanProblem::field).containsExactly("plan.concurrency.levels[2]");
        assertThat(errors.get(0).message()).isEqualTo("must be from 1 to 64 (the configured maximum, "
                + "spacebench.plan.max-concurrency), was 65");
        assertThat(PlanValidator.check(sweep(new ConcurrencyPlan(List.of(65), null, null, null, null)),
                new PlanLimits(1L << 30, 128), "plan")).isEmpty();
    }

    @Test
    void namesEveryBadFieldOfTheSweep() {
        List<PlanProblem> errors = PlanValidator.check(sweep(new ConcurrencyPlan(Arrays.asList(0, 4, 2, null), List.of("sh_c", "bogus", "sh_c"),
                0, 0L, 0)), LIMITS, "plan");
        assertThat(errors).extracting(PlanProblem::field).containsExactly("plan.concurrency.levels[0]", "plan.concurrency.levels[2]",
                "plan.concurrency.levels[3]", "plan.concurrency.metrics[1]", "plan.concurrency.metrics[2]", "plan.concurrency.n",
                "plan.concurrency.fileBytes", "plan.concurrency.fileN");
        assertThat(errors.get(1).message()).isEqualTo("must be more than the level before it (levels ascend, each once), was 2 after 4");
        assertThat(errors.get(3).message()).contains("[noop, true, sh_c]", "'bogus'");
    }

    @Test
    void everyListHasALimit() {
        List<Integer> levels = java.util.stream.IntStream.rangeClosed(1, 33).boxed().toList();
        List<PlanProblem> errors = PlanValidator.check(sweep(new ConcurrencyPlan(levels, java.util.Collections.nCopies(17, "sh_c"),
                null, null, null)), LIMITS, "plan");
        assertThat(errors).extracting(PlanProblem::field).startsWith("plan.concurrency.levels", "plan.concurrency.metrics");
        assertThat(errors.get(0).message()).isEqualTo("must have at most 32 entries, had 33");
        assertThat(errors.get(1).message()).startsWith("must have at most 16 entries");
        assertThat(PlanValidator.check(sweep(new ConcurrencyPlan(List.of(), List.of(), null, null, null)), LIMITS, "plan"))
                .extracting(PlanProblem::field).containsExactly("plan.concurrency.levels", "plan.concurrency");
    }

    @Test
    void theSweepsSamplesCountAgainstTheRunsLimit() {
        // 1 + 2 + 4 Spaces × (2 metrics × 20 + ready and delete)
        Plan plan = sweep(new ConcurrencyPlan(List.of(1, 2, 4), List.of("sh_c", "true"), 20, null, null));
        assertThat(PlanValidator.samples(plan)).isEqualTo(2 + 7 * (2 * 20 + 2));
        Plan tooMany = sweep(new ConcurrencyPlan(List.of(8, 16, 32, 64), List.of("sh_c"), 100_000, null, null));
        assertThat(PlanValidator.check(tooMany, LIMITS, "plan")).extracting(PlanProblem::message)
                .singleElement().asString().startsWith("would take ");
    }

    @Test
    void levelsBeyondWhatTheHostsMemoryHoldsOfTheShapeAreRefusedSayingSo() {
        Plan plan = sweep(new ConcurrencyPlan(List.of(1, 2, 4, 8), null, null, null, null));
        // 4096 MiB of host memory holds 3 Spaces of 1200 MiB.
        List<PlanProblem> errors = ConcurrencyFit.check(plan, true, 1200L, 4096L << 20, "plan");
        assertThat(errors).extracting(PlanProblem::field).containsExactly("plan.concurrency.levels[2]", "plan.concurrency.levels[3]");
        assertThat(errors.get(0).message()).isEqualTo("must be at most 3 (host memory: 4096 MiB holds 3 Spaces of the shape's "
                + "1200 MiB), was 4");
        assertThat(ConcurrencyFit.check(plan, true, null, 4096L << 20, "plan")).as("no memory asked: no bound").isEmpty();
        assertThat(ConcurrencyFit.check(plan, false, null, 4096L << 20, "plan")).extracting(PlanProblem::field)
                .containsExactly("plan.concurrency");
    }
}
