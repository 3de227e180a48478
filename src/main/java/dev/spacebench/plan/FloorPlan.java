package dev.spacebench.plan;

/**
 * The bare floor, measured in the same run before the Space is created: the timer's
 * granularity, starting {@code true} and {@code sh -c true} on the host with the agent's own
 * Exec code, {@code hyperfine -N true} where hyperfine is installed, and a bare gRPC ping.
 *
 * @param enabled false skips the floor (the page then has nothing to compare against)
 * @param n measured iterations of each floor loop; defaults to the exec n
 * @param warmups warm-ups of each floor loop, run and dropped; defaults to the exec warm-ups
 */
public record FloorPlan(Boolean enabled, Integer n, Integer warmups) {
}
