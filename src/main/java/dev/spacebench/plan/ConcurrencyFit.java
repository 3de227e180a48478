package dev.spacebench.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a sweep's levels fit the Space it makes: the attach kind reaches one running agent, so it
 * cannot be swept; and L Spaces of M MiB each need L × M MiB of the host's memory.
 */
public final class ConcurrencyFit {

    private ConcurrencyFit() {}

    /**
     * @param plan a plan after {@link Plans#withDefaults(Plan)}
     * @param kindCreatesSpaces false for a kind that reaches one agent already running instead of
     *     creating Spaces (attach: {@code SpaceProvider#createsSpaces})
     * @param memoryMiB the shape's memory per Space in MiB; null: none asked (then no memory bound applies)
     * @param hostMemoryBytes this host's memory in bytes (0: unknown, no bound)
     * @return the problems, naming the level and which limit refuses it; empty when the sweep fits or there is none
     */
    public static List<PlanProblem> check(Plan plan, boolean kindCreatesSpaces, Long memoryMiB, long hostMemoryBytes, String prefix) {
        List<PlanProblem> problems = new ArrayList<>();
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return problems;
        }
        String c = prefix + ".concurrency";
        if (!kindCreatesSpaces) {
            problems.add(new PlanProblem(c, "cannot sweep the attach kind: it reaches one agent that already runs, "
                    + "and a sweep creates many Spaces; use process, sandbox, container or vm"));
            return problems;
        }
        if (memoryMiB == null || memoryMiB <= 0 || hostMemoryBytes <= 0) {
            return problems;
        }
        long hostMiB = hostMemoryBytes >> 20;
        long fit = hostMiB / memoryMiB;
        for (int i = 0; i < Math.min(sweep.levels().size(), PlanLimits.MAX_LEVELS); i++) {
            Integer level = sweep.levels().get(i);
            if (level != null && level > fit) {
                problems.add(new PlanProblem(c + ".levels[" + i + "]", "must be at most " + fit
                        + " (host memory: " + hostMiB + " MiB holds " + fit + " Spaces of the shape's " + memoryMiB
                        + " MiB), was " + level));
            }
        }
        return problems;
    }
}
