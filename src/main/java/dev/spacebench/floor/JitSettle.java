package dev.spacebench.floor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Untimed calls in blocks until a JVM's JIT has settled: after each block of calls, its JIT time
 * (the JVM's total compile time, as its CompilationMXBean counts it) is read again, and the blocks
 * stop at the first one the caller's rule calls settled, or after a maximum. The run settles the
 * agent's JIT this way before its loops (measure/AgentJitSettle) and the bare ping floor its own
 * ({@link BareGrpcPing}), so that neither is timed while still compiling.
 */
public final class JitSettle {

    private JitSettle() {}

    /** Whether a block is settled. */
    @FunctionalInterface
    public interface Rule {
        /**
         * @param jitNs the JVM's JIT time during the block, ns
         * @param wallNs the block's wall time, ns
         */
        boolean settled(long jitNs, long wallNs);
    }

    /**
     * @param call one untimed call
     * @param blockCalls calls per block, at least 1
     * @param maxBlocks blocks at most
     * @param jitNs the JVM's total JIT time so far in ns; 0 or less: unknown, and no block is made
     * @param stop checked before each block; true ends the blocks (the caller says what that means)
     * @return the JIT ns of each block made, in order
     */
    public static List<Long> blocks(Runnable call, int blockCalls, int maxBlocks, LongSupplier jitNs, Rule rule, BooleanSupplier stop) {
        List<Long> blocks = new ArrayList<>();
        long before = jitNs.getAsLong();
        if (before <= 0) {
            return blocks;
        }
        while (blocks.size() < maxBlocks && !stop.getAsBoolean()) {
            long start = System.nanoTime();
            for (int i = 0; i < blockCalls; i++) {
                call.run();
            }
            long wallNs = System.nanoTime() - start;
            long after = jitNs.getAsLong();
            blocks.add(after - before);
            if (rule.settled(after - before, wallNs)) {
                break;
            }
            before = after;
        }
        return blocks;
    }
}
