package dev.spacebench.measure;

import dev.spacebench.channel.AgentJvm;
import dev.spacebench.channel.Channel;
import dev.spacebench.floor.JitSettle;
import dev.spacebench.plan.ExecMetric;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The end of the agent's untimed warm-up: after the plan's {@code agentWarmupCalls}, more untimed
 * no-op calls in blocks of a quarter of those calls (1 to {@value #MAX_BLOCK_CALLS}: 500 with the
 * default 2,000, so a small test plan pays in proportion), until a block in which the agent's JIT compiled
 * for less than {@value #SETTLED_JIT_MS} ms (its Info's {@code jit_time_ns} before and after), or
 * after {@value #MAX_BLOCKS} blocks.
 *
 * <p>Why: a fixed count does not fit every host. Measured on a 2-vCPU host at load 11–14 (a fresh
 * agent over TCP, blocks of 1,000 pings after 2,000 warm-up pings): the agent's CPU per ping was
 * 357, 305, 246, 230, 199 µs in the first five blocks and 69–111 µs from the sixth on, while its
 * JIT kept compiling; the loops that followed 2,000 calls met that compilation in their p50 and
 * their tail. A quiet host compiles sooner and stops after the first block.
 */
final class AgentJitSettle {

    static final int MAX_BLOCK_CALLS = 500;
    static final int MAX_BLOCKS = 16;
    static final long SETTLED_JIT_MS = 5;
    static final int MAX_EXEC_BLOCKS = 8;
    static final long SETTLED_EXEC_JIT_PERCENT = 2;

    private AgentJitSettle() {}

    /** Pings per block for a plan with {@code agentWarmupCalls} (at least 1): a quarter of them, 1 to {@value #MAX_BLOCK_CALLS}. */
    static int blockCalls(int agentWarmupCalls) {
        return Math.max(1, Math.min(MAX_BLOCK_CALLS, agentWarmupCalls / 4));
    }

    /**
     * @param blockCalls pings per block, {@link #blockCalls(int)}
     * @return the agent's JIT time in each block made, in ns, in order; the last one is under
     *     {@value #SETTLED_JIT_MS} ms unless {@value #MAX_BLOCKS} blocks were made. Empty when the
     *     agent reports no JIT time (an older agent, or a JVM that cannot tell).
     * @throws CancelledException when {@code cancelRequested} says so between blocks
     * @throws RuntimeException as {@link Channel#noop} and {@link AgentJvm#info} throw
     */
    static List<Long> run(Channel channel, AgentJvm jvm, int blockCalls, Duration timeout, BooleanSupplier cancelRequested) {
        return settle(jvm, blockCalls, MAX_BLOCKS, () -> channel.noop(timeout), (jitNs, wallNs) -> jitNs < SETTLED_JIT_MS * 1_000_000L,
                timeout, cancelRequested);
    }

    /**
     * The same for the exec path, after {@link #run}: blocks of {@code blockCalls} untimed
     * {@code true} execs until a block in which the agent's JIT compiled for less than
     * {@value #SETTLED_EXEC_JIT_PERCENT}% of the block's wall time (or less than
     * {@value #SETTLED_JIT_MS} ms), or after {@value #MAX_EXEC_BLOCKS} blocks.
     *
     * <p>Why: the ping blocks settle the transport's code, not the exec path's (the spawn, the
     * protobuf of ExecRequest/ExecReply, the call pool's hand-off), which a run's 200 warm-up execs
     * leave to be compiled in the exec loops. Measured on this 2-vCPU host (load 7–8, a real agent
     * after 2,000 pings, 200 execs and the ping blocks): in blocks of 250 execs the agent's JIT
     * compiled for 1,110, 488, 530, then 28 ms, and its CPU per exec fell from 3,400 to 1,440–1,680
     * µs; an absolute 5 ms is rarely met, as each exec takes milliseconds.
     *
     * @return the agent's JIT time in each block, in ns, in order; empty when the agent reports none
     */
    static List<Long> runExec(Channel channel, AgentJvm jvm, int blockCalls, Duration timeout, BooleanSupplier cancelRequested) {
        return settle(jvm, blockCalls, MAX_EXEC_BLOCKS, () -> channel.exec(ExecMetric.TRUE.argv(), timeout),
                (jitNs, wallNs) -> jitNs < SETTLED_JIT_MS * 1_000_000L || jitNs * 100 < wallNs * SETTLED_EXEC_JIT_PERCENT,
                timeout, cancelRequested);
    }

    /** Execs per exec block for a plan with {@code agentWarmupCalls} (at least 1): a tenth of them, as many as its fixed warm-up execs. */
    static int execBlockCalls(int agentWarmupCalls) {
        return Math.max(1, agentWarmupCalls / 10);
    }

    private static List<Long> settle(AgentJvm jvm, int blockCalls, int maxBlocks, Runnable call, JitSettle.Rule settled,
            Duration timeout, BooleanSupplier cancelRequested) {
        return JitSettle.blocks(call, blockCalls, maxBlocks, () -> jvm.info(timeout).counters().jitTimeNs(), settled, () -> {
            if (cancelRequested.getAsBoolean()) {
                throw new CancelledException();
            }
            return false;
        });
    }
}
