package dev.spacebench.protocol;

import dev.spacebench.agent.v1.AgentGrpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.util.concurrent.Executor;

/**
 * Where an agent server runs each call, shared by the agent and the bare floor's server so that the
 * floor stays like for like.
 *
 * <p>gRPC looks every call's method up on the transport's own thread (the server's executor is
 * direct). Ping then stays there, token check included: it does nothing, so a hand-off would only
 * add a thread wake-up. Every other call is handed to {@code others} before its token check: Exec waits for its command and the file calls
 * for their disks, and on the transport's thread they would stall every other call on the
 * connection (the probe Ping after a failure, cancellation) for as long.
 *
 * <p>Measured: with only a per-call executor (gRPC's own pool as the server's executor), the look-up
 * and start still ran on that pool, so a Ping woke one pool thread per round trip
 * ({@code spacebench.jar floor cost}: {@code grpc-default-executor} 1.00 wake-ups per no-op); with
 * the direct server executor, none.
 */
public final class CallExecutors {

    private CallExecutors() {}

    /**
     * Configures {@code builder}: a direct server executor and {@link #pingInline(Executor)}.
     *
     * @param others where calls other than Ping run; the caller owns (and shuts down) it
     * @return the builder
     */
    public static NettyServerBuilder apply(NettyServerBuilder builder, Executor others) {
        return builder.directExecutor().callExecutor(pingInline(others));
    }

    /** Keeps Ping where it is (null: no switch), moves every other call to {@code others}. */
    public static ServerCallExecutorSupplier pingInline(Executor others) {
        return new ServerCallExecutorSupplier() {
            @Override
            public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
                return call.getMethodDescriptor().getFullMethodName().equals(AgentGrpc.getPingMethod().getFullMethodName())
                        ? null : others;
            }
        };
    }
}
