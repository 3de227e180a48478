package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.PingRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The bare gRPC round trip: unary Ping to a {@link BareGrpcServer} in this JVM, over TCP
 * loopback or a unix socket (the Space's transport). The floor under every ping figure: a Space can only add to it.
 */
public final class BareGrpcPing {

    private static final long DEADLINE_SECONDS = 10;

    private BareGrpcPing() {}

    /**
     * Each ping carries a deadline, as the host's channel sends one: arming its timer is part of
     * the real call's cost.
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
                stub.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).ping(PingRequest.getDefaultInstance());
                return System.nanoTime() - start;
            });
        } finally {
            if (unixSocket != null) {
                Files.deleteIfExists(unixSocket);
            }
        }
    }
}
