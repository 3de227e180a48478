package dev.spacebench.floor;

import dev.spacebench.agent.LocalExec;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.metric.FloorMetric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The floor loops of an interleaved run, one block at a time: each stays open between its blocks
 * (the host spawner, the bare ping's server process and its connection) so that a block measures
 * what the loop's single stretch measures in a sequential run, only cut into pieces taken in turn
 * with the Space's. Warm-ups are the caller's to ask for with the first block. Not thread-safe.
 */
public final class FloorBlocks {

    private FloorBlocks() {}

    /** One floor loop kept open across its blocks. */
    public interface Loop extends AutoCloseable {
        /**
         * @param n measured trials, at least 1
         * @param warmups trials first and dropped, at least 0 (the bare ping also settles its JIT after them)
         * @return n durations in ns, in the order they ran; empty when the loop cannot run here (hyperfine missing)
         */
        long[] block(int n, int warmups) throws IOException, InterruptedException;

        @Override
        void close() throws IOException;
    }

    /**
     * The loop of a floor metric id ({@code floor.spawn.true}, …, every floor metric but the timer).
     *
     * @param unixSocketDir where the bare ping's socket goes; null: TCP loopback
     * @throws IllegalArgumentException for the timer or an id that is no floor loop
     */
    public static Loop open(String id, Path unixSocketDir) throws IOException, InterruptedException {
        FloorMetric metric = java.util.Arrays.stream(FloorMetric.values()).filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no floor loop " + id));
        return switch (metric) {
            case SPAWN_TRUE -> spawn(HostSpawnFloor.TRUE);
            case SPAWN_SH_C -> spawn(HostSpawnFloor.SH_C_TRUE);
            case HYPERFINE_TRUE -> hyperfine("true");
            case HYPERFINE_SH_C -> hyperfine("sh -c true");
            case GRPC_NOOP -> grpcPing(unixSocketDir == null ? null : unixSocketDir.resolve("floor-ping.sock"));
            case TIMER -> throw new IllegalArgumentException("the timer is one reading, not a loop");
        };
    }

    /** {@link HostSpawnFloor}'s spawn of {@code argv} with the agent's own Exec code, block by block. */
    public static Loop spawn(List<String> argv) throws IOException {
        ExecRequest request = ExecRequest.newBuilder().addAllArgv(argv).setTimeoutMs(HostSpawnFloor.TIMEOUT.toMillis()).build();
        Path workDir = Files.createTempDirectory("spacebench-spawn-floor");
        LocalExec exec = new LocalExec(workDir);
        return new Loop() {
            @Override
            public long[] block(int n, int warmups) throws IOException, InterruptedException {
                return Trials.run(n, warmups, () -> {
                    ExecReply reply = exec.run(request);
                    if (reply.getExitCode() != 0 || reply.getTimedOut()) {
                        throw new IOException(argv + " exited with " + reply.getExitCode()
                                + (reply.getTimedOut() ? " (timed out)" : "") + ": " + reply.getStderr().toStringUtf8());
                    }
                    return reply.getAgentDurationNs();
                });
            }

            @Override
            public void close() throws IOException {
                try {
                    exec.close();
                } finally {
                    Files.deleteIfExists(workDir);
                }
            }
        };
    }

    /** {@code hyperfine -N} of {@code command}, one hyperfine per block (its process start is outside each timed run). */
    public static Loop hyperfine(String command) {
        return new Loop() {
            @Override
            public long[] block(int n, int warmups) throws IOException, InterruptedException {
                HyperfineFloor.Result result = HyperfineFloor.run(n, warmups, command);
                return result.available() ? result.samplesNs() : new long[0];
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * {@link BareGrpcPing}'s bare ping to a server process of its own, started once and kept for
     * every block; the first block's warm-ups are followed by the JIT settling blocks.
     *
     * @param unixSocket null: TCP loopback; else a unix socket at this path (removed at close)
     */
    public static Loop grpcPing(Path unixSocket) throws IOException, InterruptedException {
        BareServerProcess server = BareServerProcess.start(unixSocket, 0, 0, false);
        AgentGrpc.AgentBlockingStub stub = server.blocking();
        return new Loop() {
            @Override
            public long[] block(int n, int warmups) throws IOException, InterruptedException {
                for (int i = 0; i < warmups; i++) {
                    BareGrpcPing.ping(stub);
                }
                if (warmups > 0) {
                    BareGrpcPing.settle(() -> BareGrpcPing.ping(stub), Math.max(1, Math.min(BareGrpcPing.SETTLE_BLOCK_CALLS, warmups / 4)),
                            () -> BareGrpcPing.jitMs(server));
                }
                return Trials.run(n, 0, () -> {
                    long start = System.nanoTime();
                    BareGrpcPing.ping(stub);
                    return System.nanoTime() - start;
                });
            }

            @Override
            public void close() throws IOException {
                server.close();
            }
        };
    }
}
