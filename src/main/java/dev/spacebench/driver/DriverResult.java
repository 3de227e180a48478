package dev.spacebench.driver;

import dev.spacebench.environment.JvmGc;
import java.util.List;
import java.util.Map;

/**
 * What the driver's {@link dev.spacebench.measure.Measurement} knew at its end besides the samples,
 * sent in its result frame: the same facts {@code Measurement}'s getters give in process.
 *
 * @param agentGcInLoops the agent JVM's collections inside the loops; null when none could be counted
 * @param hostGcInLoops the collections of the JVM that timed the loops (the driver's); null when no loop ran
 * @param jitSettleBlocks the agent's JIT ns per untimed ping block after the fixed warm-up
 * @param execJitSettleBlocks the same per block of untimed {@code true} execs
 * @param fileWarmupTransfers untimed warm-up uploads (each with its download) before the file loops
 * @param floorFacts a {@link DriverJob.Task#FLOOR} job's facts about how the floor was taken, for the page (in order); empty otherwise
 */
public record DriverResult(JvmGc agentGcInLoops, JvmGc hostGcInLoops, List<Long> jitSettleBlocks, List<Long> execJitSettleBlocks,
                           int fileWarmupTransfers, Map<String, String> floorFacts) {

    public DriverResult {
        floorFacts = floorFacts == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(floorFacts));
    }

    /** A loops job's result, with no floor facts. */
    public DriverResult(JvmGc agentGcInLoops, JvmGc hostGcInLoops, List<Long> jitSettleBlocks, List<Long> execJitSettleBlocks,
                        int fileWarmupTransfers) {
        this(agentGcInLoops, hostGcInLoops, jitSettleBlocks, execJitSettleBlocks, fileWarmupTransfers, null);
    }

    /** A floor job's result: its facts only. */
    public static DriverResult ofFloor(Map<String, String> facts) {
        return new DriverResult(null, null, List.of(), List.of(), 0, facts);
    }
}
