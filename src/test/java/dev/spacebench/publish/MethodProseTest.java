package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Method section's prose reads every fact the plan gives it, in every paragraph: a plan with
 * a floor, two Spaces, exec loops with agent warm-up calls and files renders each figure, for a
 * created Space and an attached one.
 */
class MethodProseTest {

    private static final Plan PLAN = Plans.withDefaults(new Plan(new ExecPlan(List.of("noop", "true"), 37, 3, 50),
            new FilePlan(List.of(new FileSize(1L << 20, 4)), 2, 8L << 20, 64 * 1024), new FloorPlan(true, 23, 5), 2));

    @Test
    void aCreatedSpacesMethodNamesEveryFigureOfThePlan() {
        String text = String.join(" ", Method.describe(PLAN, null, "process", 11, 1)).replaceAll("\\s+", " ");
        assertThat(text).contains("created a process Space")
                .contains("created 2 Spaces in turn")
                .contains("23 times each after 5 warm-ups")
                .contains("made 50 untimed no-op calls and 5")
                .contains("(no-op RPC, true): 3 warm-ups, then 37 measured round trips")
                .contains("1 MiB ×4, after 2 warm-up transfer(s) per size")
                .contains("8 MiB and more go through the bulk lane")
                .contains("in 64 KiB chunks");
    }

    @Test
    void anAttachedSpacesMethodRendersToo() {
        String text = String.join("\n", Method.describe(PLAN, null, "attach", 0, 0));
        assertThat(text).doesNotContain("created an attach Space").contains("37 measured round trips");
    }
}
