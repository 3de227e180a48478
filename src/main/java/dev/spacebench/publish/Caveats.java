package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunStatus;
import java.util.List;
import java.util.Map;

/**
 * The page's Caveats: what a reader must know before quoting a figure. The prose is
 * {@code templates/text/prose/caveats.txt}; this class passes it the run's facts.
 */
final class Caveats {

    private Caveats() {}

    /**
     * What caveats.txt reads.
     *
     * @param p99Samples how many of the slowest samples the p99 rests on (nearest rank)
     * @param otherSpacesRunning null when the environment was not recorded
     * @param spawnLabels the plan's metrics that start a process, e.g. "true and sh -c true"; {@code spawnCount} how many
     */
    record Facts(boolean succeeded, String status, String failureReason, String kind, boolean hasExec, int execN,
                 int p99Samples, int agentWarmupCalls, Integer otherSpacesRunning, boolean hasFiles, int failures,
                 String spawnLabels, int spawnCount) {
        public boolean spawns() {
            return spawnCount > 0;
        }
    }

    static List<String> list(Run run, Plan plan, Environment env, String kind, List<RunReport.ExecRow> exec, int failures) {
        int n = plan.exec().n();
        Integer agentWarmup = plan.exec().agentWarmupCalls();
        Facts facts = new Facts(run.getStatus() == RunStatus.SUCCEEDED, run.getStatus().name(), run.getFailureReason(), kind,
                !exec.isEmpty(), n, Math.max(1, n - (int) Math.ceil(0.99 * n) + 1), agentWarmup == null ? 0 : agentWarmup,
                env == null ? null : env.otherSpacesRunning(), !plan.files().sizes().isEmpty(), failures,
                String.join(" and ", spawning(plan)), spawning(plan).size());
        return TextTemplates.paragraphs("prose/caveats", Map.of("c", facts));
    }

    /** The plan's exec metrics that start a process ("true", "sh -c true"), in the plan's order. */
    static List<String> spawning(Plan plan) {
        return plan.exec().commands().stream().filter(m -> !m.argv().isEmpty()).map(ExecMetric::label).toList();
    }
}
