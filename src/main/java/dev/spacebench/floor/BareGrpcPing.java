package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.channel.CallDeadlines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The bare gRPC round trip: unary Ping to a {@link BareGrpcServer} in this JVM, over TCP
 * loopback or a unix socket (the Space's transport). The floor under every ping figure: a Space can only add to it.
 */
public final class BareGrpcPing {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private BareGrpcPing() {}

    /**
     * Each ping is made as the host's channel makes a Space's ({@link #ping}).
     *
     * @param n measured pings, at least 1
     * @param warmups pings first and dropped, at least 0; the first one also opens the connection
     * @return round trips in ns, client side, in the order they ran
     * @throws IOException if the server cannot start
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
     * @param unixSocket null: over TCP loopback; otherwise over a unix socket bound at this path
     *     (removed afterwards), the transport of Spaces reached through one
     * @throws IllegalStateException if a unix socket is asked for and epoll is unavailable
     */
    public static long[] run(int n, int warmups, Path unixSocket) throws IOException, InterruptedException {
        try (BareGrpcServer server = unixSocket == null ? BareGrpcServer.start(new byte[0])
                : BareGrpcServer.startUnix(new byte[0], unixSocket)) {
            AgentGrpc.AgentBlockingStub stub = server.blocking();
            return Trials.run(n, warmups, () -> {
                long start = System.nanoTime();
                ping(stub);
                return System.nanoTime() - start;
            });
        } finally {
            if (unixSocket != null) {
                Files.deleteIfExists(unixSocket);
            }
        }
    }
}
