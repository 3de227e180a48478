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
 * add a thread wake-up. Exec stays there too until its service method, which hands the command to
 * a pool itself, once: on {@code others}, gRPC would hand each of the call's events (start, message,
 * half-close, completion) to the pool, about 3 more wake-ups of a pool thread per exec ({@code
 * spacebench.jar floor cost}: {@code agent-call} 6.2–6.6 wake-ups per exec {@code true}, against
 * 3.0–3.3 for a bare spawn loop's thread). Every other call is handed to {@code others} before its token check: the file calls wait
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

    /**
     * Keeps Ping and Exec where they are (null: no switch), moves every other call to {@code
     * others}. A server's Exec must not block: it hands its command off itself.
     */
    public static ServerCallExecutorSupplier pingInline(Executor others) {
        return new ServerCallExecutorSupplier() {
            @Override
            public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
                String method = call.getMethodDescriptor().getFullMethodName();
                return method.equals(AgentGrpc.getPingMethod().getFullMethodName())
                        || method.equals(AgentGrpc.getExecMethod().getFullMethodName()) ? null : others;
            }
        };
    }
}
