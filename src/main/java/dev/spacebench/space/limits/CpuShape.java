package dev.spacebench.space.limits;

import java.util.List;

/**
 * How a Space gets the CPUs asked for, the same way for every kind that can enforce it: whole CPUs
 * by affinity to that many of the CPUs this app may use, and only the fraction of a CPU by a CFS
 * quota. A quota alone would also limit the total, but it throttles in 100 ms periods, which shows
 * up as latency spikes in exactly the round trips Spacebench measures.
 *
 * @param cpus the CPUs to pin to, the first ones this app may use ({@link CpuSet#allowed()})
 * @param pinned whether that is fewer than all: only then is affinity worth setting
 * @param quota CPUs' worth of time per period where a fraction was asked, e.g. 0.5; null otherwise
 */
public record CpuShape(List<Integer> cpus, boolean pinned, Double quota) {

    /** @param asked CPUs asked for, more than 0 */
    public static CpuShape of(double asked, List<Integer> allowed) {
        int whole = (int) Math.min(Math.ceil(asked), allowed.size());
        Double quota = asked < whole ? asked : null;
        return new CpuShape(List.copyOf(allowed.subList(0, whole)), whole < allowed.size(), quota);
    }

    /** E.g. {@code CPU affinity 0 (1 of 2 CPUs, taskset)} or {@code all 2 CPUs this host allows}. */
    public String describeAffinity(int allowed, String how) {
        return pinned ? "CPU affinity " + CpuSet.format(cpus) + " (" + cpus.size() + " of " + allowed + " CPUs, " + how + ")"
                : "all " + allowed + " CPUs this host allows (no affinity needed)";
    }
}
