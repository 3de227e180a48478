package dev.spacebench.driver;

import dev.spacebench.environment.JvmGc;
import java.util.List;

/**
 * What the driver's {@link dev.spacebench.measure.Measurement} knew at its end besides the samples,
 * sent in its result frame: the same facts {@code Measurement}'s getters give in process.
 *
 * @param agentGcInLoops the agent JVM's collections inside the loops; null when none could be counted
 * @param hostGcInLoops the collections of the JVM that timed the loops (the driver's); null when no loop ran
 * @param jitSettleBlocks the agent's JIT ns per untimed ping block after the fixed warm-up
 * @param execJitSettleBlocks the same per block of untimed {@code true} execs
 * @param fileWarmupTransfers untimed warm-up uploads (each with its download) before the file loops
 */
public record DriverResult(JvmGc agentGcInLoops, JvmGc hostGcInLoops, List<Long> jitSettleBlocks, List<Long> execJitSettleBlocks,
                           int fileWarmupTransfers) {
}
