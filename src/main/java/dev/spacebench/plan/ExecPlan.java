package dev.spacebench.plan;

import java.util.List;

/**
 * Exec round trips: each metric runs {@code warmups} untimed-for-results iterations, then
 * {@code n} measured ones, serially.
 *
 * @param metrics wire names from {@link ExecMetric} ("noop", "true", "sh_c")
 * @param n measured iterations per metric
 * @param warmups warm-up iterations per metric, recorded but excluded from the figures
 * @param agentWarmupCalls untimed no-op calls made once, before the loops, so that the agent's
 *     JVM has compiled its serving path (a tenth as many {@code true} execs follow them); 0 turns
 *     it off. Without it the first ~2,000 calls into a fresh agent run 3–6× slower than later ones.
 */
public record ExecPlan(List<String> metrics, Integer n, Integer warmups, Integer agentWarmupCalls) {

    /** A plan part that leaves the agent warm-up to its default. */
    public ExecPlan(List<String> metrics, Integer n, Integer warmups) {
        this(metrics, n, warmups, null);
    }

    /**
     * {@link #metrics()} typed, in its order, for a validated plan.
     *
     * @throws IllegalStateException when a name is not an {@link ExecMetric}'s (the plan skipped validation)
     */
    public List<ExecMetric> commands() {
        return ExecMetric.parse(metrics);
    }
}
