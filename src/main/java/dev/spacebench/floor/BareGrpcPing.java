package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.channel.CallDeadlines;
import java.io.IOException;
import java.nio.file.Path;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The bare gRPC round trip: unary Ping from this JVM to a {@link BareGrpcServer} in a process of its
 * own ({@link BareServerProcess}, started as a process Space's agent is), over TCP loopback or a
 * unix socket (the Space's transport). The floor under every ping figure: a Space can only add to
 * it. (With the server in this JVM, sharing its JIT, GC and safepoints, the floor's p50 came out
 * above a process Space's no-op.)
 */
public final class BareGrpcPing {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final int SETTLE_BLOCK_CALLS = 500;
    static final int MAX_SETTLE_BLOCKS = 16;
    static final long SETTLED_JIT_MS = 5;

    private BareGrpcPing() {}

    /**
     * Each ping is made as the host's channel makes a Space's ({@link #ping}).
     *
     * @param n measured pings, at least 1
     * @param warmups pings first and dropped, at least 0; the first one also opens the connection;
     *     then {@link #settle} blocks of a quarter of them (at most 500) until neither JVM's JIT compiles
     * @return round trips in ns, client side, in the order they ran
     * @throws IOException if the server process cannot start
     * @throws io.grpc.StatusRuntimeException if a ping fails
     * @throws IllegalArgumentException if n &lt; 1 or warmups &lt; 0
     */
    public static long[] run(int n, int warmups) throws IOException, InterruptedException {
        return run(n, warmups, null);
    }

    /**
     * One floor ping, with its timeout kept as the host's channel keeps a Space's Ping's
     * ({@link CallDeadlines}: no gRPC deadline, so no timer per call on either side), so that the
     * floor pays nothing the Space's ping does not.
     *
     * @throws io.grpc.StatusRuntimeException if the ping fails (DEADLINE_EXCEEDED after 10 s)
     */
    static void ping(AgentGrpc.AgentBlockingStub stub) {
        CallDeadlines.within(TIMEOUT, () -> stub.ping(PingRequest.getDefaultInstance()));
    }

    /**
     * After the warm-ups, more untimed pings in blocks until the client's and the server's JIT
     * together compiled for less than {@value #SETTLED_JIT_MS} ms in a block, or
     * {@value #MAX_SETTLE_BLOCKS} blocks: as the run does for the agent (measure/AgentJitSettle), so
     * that the floor is not slower than a Space's ping for want of compiled code on either side. The
     * server's JIT time is its own CompilationMXBean's, which it reports through an untimed Info
     * call after each block (as the agent reports its JIT time to the run), this JVM's from its own.
     * Measured with the server in this JVM (load 1.5–2): p50 269–388 µs after 2,000 warm-up pings,
     * 197–216 µs after 10,000.
     *
     * @param jitMs both JVMs' total JIT time so far, in ms (negative: unknown, no blocks made)
     * @return the JIT ms of each block made, in order
     */
    static List<Long> settle(Runnable ping, int blockCalls, LongSupplier jitMs) {
        return JitSettle.blocks(ping, blockCalls, MAX_SETTLE_BLOCKS, () -> jitMs.getAsLong() * 1_000_000,
                (jitNs, wallNs) -> jitNs < SETTLED_JIT_MS * 1_000_000, () -> false).stream().map(ns -> ns / 1_000_000).toList();
    }

    /** This JVM's JIT ms plus the server's; -1 when this JVM cannot tell. */
    static long jitMs(BareServerProcess server) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() + server.jitNs() / 1_000_000 : -1;
    }

    /**
     * @param unixSocket null: over TCP loopback; otherwise over a unix socket bound at this path
     *     (removed afterwards), the transport of Spaces reached through one
     * @throws IllegalStateException if a unix socket is asked for and epoll is unavailable
     */
    public static long[] run(int n, int warmups, Path unixSocket) throws IOException, InterruptedException {
        return run(n, warmups, unixSocket, BareServerProcess::blocking);
    }

    /**
     * As {@link #run(int, int, Path)}, pinging through the stub {@code stubs} gives for the started
     * server (tests look at the server there and can make the client fail).
     */
    static long[] run(int n, int warmups, Path unixSocket, Function<BareServerProcess, AgentGrpc.AgentBlockingStub> stubs)
            throws IOException, InterruptedException {
        if (n < 1 || warmups < 0) {
            throw new IllegalArgumentException("n must be at least 1 and warmups 0 or more, were " + n + " and " + warmups);
        }
        try (BareServerProcess server = BareServerProcess.start(unixSocket, 0, 0, false)) {
            AgentGrpc.AgentBlockingStub stub = stubs.apply(server);
            for (int i = 0; i < warmups; i++) {
                ping(stub);
            }
            if (warmups > 0) {
                settle(() -> ping(stub), Math.max(1, Math.min(SETTLE_BLOCK_CALLS, warmups / 4)), () -> jitMs(server));
            }
            return Trials.run(n, 0, () -> {
                long start = System.nanoTime();
                ping(stub);
                return System.nanoTime() - start;
            });
        }
    }
}
