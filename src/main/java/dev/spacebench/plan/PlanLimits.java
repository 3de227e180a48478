package dev.spacebench.plan;

import dev.spacebench.protocol.AgentProtocol;

/**
 * Bounds a plan must stay within.
 *
 * @param maxFileBytes the largest file size a plan may ask for, in bytes
 * @param maxConcurrency the most Spaces a sweep level may keep busy at once ({@code spacebench.plan.max-concurrency})
 */
public record PlanLimits(long maxFileBytes, int maxConcurrency) {
    public static final int DEFAULT_MAX_CONCURRENCY = 64;
    /** Entries in concurrency.levels: a level is a row on the page and a point on each plot. */
    public static final int MAX_LEVELS = 32;

    /** Limits with the default maximum concurrency. */
    public PlanLimits(long maxFileBytes) {
        this(maxFileBytes, DEFAULT_MAX_CONCURRENCY);
    }

    public static final int MAX_N = 1_000_000;
    public static final int MAX_WARMUPS = 10_000;
    public static final int MAX_AGENT_WARMUP_CALLS = 100_000;
    /** Spaces one run may create in turn (to sample their ready time). */
    public static final int MAX_SPACES = 100;
    public static final int MIN_CHUNK_BYTES = 1024;
    /** As {@link AgentProtocol#MAX_CHUNK_BYTES}: the agent refuses a larger chunk. */
    public static final int MAX_CHUNK_BYTES = AgentProtocol.MAX_CHUNK_BYTES;
    /** Entries in exec.metrics: each known metric once, with room for mistakes to be named. */
    public static final int MAX_METRICS = 16;
    /** Entries in files.sizes: each size is two metrics on the page and a loop of its own. */
    public static final int MAX_FILE_SIZES = 100;
    /**
     * Samples one run may take, warm-ups, floor and Space samples included: what one app carries
     * (8 bytes a measured sample in the worker, a sort of one metric at a time, one database row
     * each). Three exec round trips and the floor at n = 1,000,000 fit, 7,000,003 with no warm-ups.
     */
    public static final long MAX_SAMPLES_PER_RUN = 8_000_000;

    /**
     * What a plan's numeric field allows, for messages about input that is not such a number.
     *
     * @param path the field's path below the plan with list indexes, e.g. {@code files.sizes[3].n}
     * @return e.g. "a whole number from 1 to 1000000"; empty for a path that is not a numeric field
     */
    public java.util.Optional<String> allowed(String path) {
        String field = path.replaceAll("\\[\\d+]", "[]");
        String text = switch (field) {
            case "exec.n", "files.sizes[].n", "floor.n" -> "from 1 to " + MAX_N;
            case "exec.warmups", "files.warmups", "floor.warmups" -> "from 0 to " + MAX_WARMUPS;
            case "exec.agentWarmupCalls" -> "from 0 to " + MAX_AGENT_WARMUP_CALLS;
            case "files.sizes[].bytes" -> "from 1 to " + maxFileBytes;
            case "files.bulkThresholdBytes" -> "from 0 to " + Long.MAX_VALUE;
            case "files.chunkBytes" -> "from " + MIN_CHUNK_BYTES + " to " + MAX_CHUNK_BYTES;
            case "spaces" -> "from 1 to " + MAX_SPACES;
            case "blockSize" -> "from 1 to exec.n";
            case "seed" -> "from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
            case "concurrency.levels[]" -> "from 1 to " + maxConcurrency;
            case "concurrency.n", "concurrency.fileN" -> "from 1 to " + MAX_N;
            case "concurrency.fileBytes" -> "from 1 to " + maxFileBytes;
            default -> null;
        };
        return java.util.Optional.ofNullable(text).map(range -> "a whole number " + range);
    }
}
