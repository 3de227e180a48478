package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The title, the Questions and the spawn caveat speak of what the plan measured: no "file transfer" without files, no
 * true or no-op question without both, no spawn caveat without a command to spawn.
 */
class PageFollowsThePlanTest {

    private static Plan plan(List<String> exec, List<FileSize> files) {
        return Plans.withDefaults(new Plan(new ExecPlan(exec, 10, 1), new FilePlan(files, null, null, null)));
    }

    private static RunReport.ExecRow row(String metric, String label, long p50) {
        RunReport.Figure f = RunReport.Figure.of(p50);
        return new RunReport.ExecRow(metric, label, f, f, f, f, 10, 1, 0);
    }

    private static List<String> questions(List<RunReport.ExecRow> exec) {
        return Questions.list(exec, true).stream().map(RunReport.Question::question).toList();
    }

    @Test
    void theTitleAsksAboutWhatThePlanMeasures() {
        FileSize mib = new FileSize(1L << 20, 2);
        assertThat(RunReportBuilder.title(plan(List.of("noop", "true", "sh_c"), List.of(mib)), "process"))
                .isEqualTo("How long does a command round trip, and a file transfer, into a process Space take?");
        assertThat(RunReportBuilder.title(plan(List.of("noop", "true"), List.of()), "sandbox"))
                .isEqualTo("How long does a command round trip into a sandbox Space take?");
        assertThat(RunReportBuilder.title(plan(List.of("sh_c"), List.of()), "attach"))
                .isEqualTo("How long does a command round trip into an attach Space take?");
        assertThat(RunReportBuilder.title(plan(List.of("noop"), List.of()), "process"))
                .isEqualTo("How long does a no-op round trip into a process Space take?");
        assertThat(RunReportBuilder.title(plan(List.of(), List.of(mib)), "container"))
                .isEqualTo("How long does a file transfer into a container Space take?");
    }

    @Test
    void questionsAboutTrueAndTheNoopComeOnlyWithThoseMetrics() {
        String whyTrue = "Why does running true take milliseconds when the no-op takes microseconds?";
        String shNotSlower = "Why is sh -c true not slower than true here?";
        String shSlower = "Why is sh -c true slower than true?";

        List<String> onlyShC = questions(List.of(row("exec.sh_c", "sh -c true", 3_000_000)));
        assertThat(onlyShC).doesNotContain(whyTrue, shNotSlower, shSlower).contains("Which figure should I quote?");
        assertThat(questions(List.of())).as("no exec metric at all").doesNotContain(whyTrue, shNotSlower, shSlower);
        assertThat(questions(List.of(row("exec.noop", "no-op RPC", 300_000)))).doesNotContain(whyTrue, shNotSlower, shSlower);

        List<String> all = questions(List.of(row("exec.noop", "no-op RPC", 300_000), row("exec.true", "true", 2_000_000),
                row("exec.sh_c", "sh -c true", 2_500_000)));
        assertThat(all).contains(whyTrue, shSlower).doesNotContain(shNotSlower);
        assertThat(questions(List.of(row("exec.true", "true", 2_000_000), row("exec.sh_c", "sh -c true", 1_900_000))))
                .contains(shNotSlower).doesNotContain(whyTrue, shSlower);
    }

    @Test
    void theSpawnCaveatNamesOnlyThePlansCommands() {
        assertThat(Caveats.spawning(plan(List.of("noop", "sh_c"), List.of()))).containsExactly("sh -c true");
        assertThat(Caveats.spawning(plan(List.of("noop"), List.of()))).isEmpty();
        assertThat(Caveats.spawning(plan(List.of("true", "sh_c"), List.of()))).containsExactly("true", "sh -c true");
    }
}
