package dev.spacebench.plan;

import dev.spacebench.protocol.AgentProtocol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The published method's defaults, and the merge of a partial plan with them. */
public final class Plans {

    public static final int DEFAULT_EXEC_N = 300;
    public static final int DEFAULT_EXEC_WARMUPS = 5;
    public static final int DEFAULT_FILE_WARMUPS = 1;
    /** Enough for a fresh agent JVM's no-op path to reach its steady state on our machines (~2,100 calls). */
    public static final int DEFAULT_AGENT_WARMUP_CALLS = 2000;
    /** The floor's n follows the exec n up to this many. */
    public static final int DEFAULT_FLOOR_MAX_N = 1000;
    public static final long DEFAULT_BULK_THRESHOLD_BYTES = 2L << 20;
    public static final int DEFAULT_CHUNK_BYTES = AgentProtocol.DEFAULT_CHUNK_BYTES;
    /** Measured iterations per block of an interleaved plan (at most the exec n: a smaller n is one block). */
    public static final int DEFAULT_BLOCK_SIZE = 10;
    private static final long MIB = 1L << 20;

    private Plans() {}

    /** The published method: noop/true/sh_c ×300 after 5 warm-ups; 1, 4, 16, 100, 512 MiB ×20, 20, 10, 10, 5. */
    public static Plan published() {
        return withDefaults((Plan) null);
    }

    /** A first look in seconds: exec ×50 after 5 warm-ups; 1 MiB ×5 and 16 MiB ×3. */
    public static Plan quick() {
        return withDefaults(new Plan(
                new ExecPlan(null, 50, null),
                new FilePlan(List.of(new FileSize(MIB, 5), new FileSize(16 * MIB, 3)), null, null, null)));
    }

    /** Fills every part the request left out with the published default. Never returns nulls inside. */
    public static Plan withDefaults(Plan given) {
        ExecPlan exec = execWithDefaults(given == null ? null : given.exec());
        FilePlan files = filesWithDefaults(given == null ? null : given.files());
        FloorPlan floor = given == null ? null : given.floor();
        Integer spaces = given == null || given.spaces() == null ? 1 : given.spaces();
        String order = given == null || given.order() == null ? Plan.INTERLEAVED : given.order();
        int execN = inRange(exec.n(), 1, PlanLimits.MAX_N, DEFAULT_EXEC_N);
        // The default never makes a valid plan invalid: an exec n under it is one block of n.
        int blockSize = given == null || given.blockSize() == null ? Math.min(DEFAULT_BLOCK_SIZE, execN) : given.blockSize();
        // An interleaved floor loop needs one iteration per block at least: its default n rises to that.
        int blocks = Plan.INTERLEAVED.equals(order) && blockSize >= 1 ? (execN + blockSize - 1) / blockSize : 1;
        return new Plan(exec, files, new FloorPlan(
                floor == null || floor.enabled() == null || floor.enabled(),
                // From the exec loops by default (capped: a floor is a reference, not the experiment); an exec
                // value out of range is reported there, not twice.
                floor == null || floor.n() == null ? Math.max(blocks, Math.min(DEFAULT_FLOOR_MAX_N, execN)) : floor.n(),
                floor == null || floor.warmups() == null
                        ? inRange(exec.warmups(), 0, PlanLimits.MAX_WARMUPS, DEFAULT_EXEC_WARMUPS) : floor.warmups()),
                spaces, concurrencyWithDefaults(given == null ? null : given.concurrency()),
                // A new run interleaves unless it asks not to; the seed is drawn when the run is submitted.
                order, blockSize, given == null ? null : given.seed());
    }

    /** Off stays off; a sweep asked for gets the defaults of what it left out. */
    private static ConcurrencyPlan concurrencyWithDefaults(ConcurrencyPlan given) {
        if (given == null) {
            return null;
        }
        return new ConcurrencyPlan(
                given.levels() == null ? ConcurrencyPlan.DEFAULT_LEVELS : copy(given.levels()),
                given.metrics() == null ? ConcurrencyPlan.DEFAULT_METRICS : copy(given.metrics()),
                given.n() == null ? ConcurrencyPlan.DEFAULT_N : given.n(),
                given.fileBytes(),
                given.fileBytes() == null ? null : given.fileN() == null ? ConcurrencyPlan.DEFAULT_FILE_N : given.fileN());
    }

    private static ExecPlan execWithDefaults(ExecPlan given) {
        if (given == null) {
            return new ExecPlan(ExecMetric.wireNames(), DEFAULT_EXEC_N, DEFAULT_EXEC_WARMUPS, DEFAULT_AGENT_WARMUP_CALLS);
        }
        return new ExecPlan(
                given.metrics() == null ? ExecMetric.wireNames() : copy(given.metrics()),
                given.n() == null ? DEFAULT_EXEC_N : given.n(),
                given.warmups() == null ? DEFAULT_EXEC_WARMUPS : given.warmups(),
                given.agentWarmupCalls() == null ? DEFAULT_AGENT_WARMUP_CALLS : given.agentWarmupCalls());
    }

    private static FilePlan filesWithDefaults(FilePlan given) {
        List<FileSize> defaultSizes = List.of(
                new FileSize(MIB, 20), new FileSize(4 * MIB, 20), new FileSize(16 * MIB, 10),
                new FileSize(100 * MIB, 10), new FileSize(512 * MIB, 5));
        if (given == null) {
            return new FilePlan(defaultSizes, DEFAULT_FILE_WARMUPS, DEFAULT_BULK_THRESHOLD_BYTES, DEFAULT_CHUNK_BYTES);
        }
        return new FilePlan(
                given.sizes() == null ? defaultSizes : copy(given.sizes()),
                given.warmups() == null ? DEFAULT_FILE_WARMUPS : given.warmups(),
                given.bulkThresholdBytes() == null ? DEFAULT_BULK_THRESHOLD_BYTES : given.bulkThresholdBytes(),
                given.chunkBytes() == null ? DEFAULT_CHUNK_BYTES : given.chunkBytes());
    }

    private static int inRange(int value, int min, int max, int fallback) {
        return value >= min && value <= max ? value : fallback;
    }

    // Keeps null elements, so the validator can name them instead of failing here.
    private static <T> List<T> copy(List<T> list) {
        return Collections.unmodifiableList(new ArrayList<>(list));
    }
}
