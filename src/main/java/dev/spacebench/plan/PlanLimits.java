package dev.spacebench.plan;

/**
 * Bounds a plan must stay within.
 *
 * @param maxFileBytes the largest file size a plan may ask for, in bytes
 */
public record PlanLimits(long maxFileBytes) {
    public static final int MAX_N = 1_000_000;
    public static final int MAX_WARMUPS = 10_000;
    public static final int MAX_AGENT_WARMUP_CALLS = 100_000;
    /** Spaces one run may create in turn (to sample their ready time). */
    public static final int MAX_SPACES = 100;
    public static final int MIN_CHUNK_BYTES = 1024;
    /** gRPC's default inbound message limit is 4 MiB; a chunk plus framing must fit under it. */
    public static final int MAX_CHUNK_BYTES = 3 << 20;
}
