package dev.spacebench.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.agent.v1.InfoReply;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On a real Netty server configured by {@link CallExecutors}: a Ping is started (interceptor) and
 * answered on the transport's own thread, with no hand-off to any pool; so is Exec up to its service
 * method (the agent's hands its command off itself); any other call (Info) is started and runs on
 * the pool given.
 */
class CallExecutorsTest {

    @Test
    void pingAndExecAreStartedOnTheTransportThreadAndOtherCallsOnThePoolGiven() throws Exception {
        List<String> started = new CopyOnWriteArrayList<>();
        List<String> handled = new CopyOnWriteArrayList<>();
        ServerInterceptor recordStart = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                started.add(call.getMethodDescriptor().getBareMethodName() + " " + Thread.currentThread().getName());
                return next.startCall(call, headers);
            }
        };
        AgentGrpc.AgentImplBase service = new AgentGrpc.AgentImplBase() {
            @Override
            public void ping(PingRequest request, StreamObserver<PingReply> reply) {
                handled.add("Ping " + Thread.currentThread().getName());
                reply.onNext(PingReply.getDefaultInstance());
                reply.onCompleted();
            }

            @Override
            public void exec(ExecRequest request, StreamObserver<ExecReply> reply) {
                handled.add("Exec " + Thread.currentThread().getName());
                reply.onNext(ExecReply.getDefaultInstance());
                reply.onCompleted();
            }

            @Override
            public void info(InfoRequest request, StreamObserver<InfoReply> reply) {
                handled.add("Info " + Thread.currentThread().getName());
                reply.onNext(InfoReply.getDefaultInstance());
                reply.onCompleted();
            }
        };
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-call-pool"));
        Server server = CallExecutors.apply(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)), pool)
                .addService(ServerInterceptors.intercept(service, recordStart))
                .build()
                .start();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", ((InetSocketAddress) server.getListenSockets().get(0)).getPort())
                .usePlaintext()
                .build();
        try {
            AgentGrpc.AgentBlockingStub stub = AgentGrpc.newBlockingStub(channel);
            for (int i = 0; i < 3; i++) {
                stub.ping(PingRequest.getDefaultInstance());
            }
            stub.exec(ExecRequest.getDefaultInstance());
            stub.info(InfoRequest.getDefaultInstance());
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            pool.shutdownNow();
        }
        String transport = handled.get(0).substring("Ping ".length());
        // Netty names its event loop threads; gRPC's own pool is "grpc-default-executor-N".
        assertThat(transport).doesNotContain("executor").isNotEqualTo("the-call-pool");
        assertThat(started.subList(0, 3)).allSatisfy(s -> assertThat(s).isEqualTo("Ping " + transport));
        assertThat(handled.subList(0, 3)).allSatisfy(s -> assertThat(s).isEqualTo("Ping " + transport));
        assertThat(started.get(3)).isEqualTo("Exec " + transport);
        assertThat(handled.get(3)).isEqualTo("Exec " + transport);
        assertThat(started.get(4)).isEqualTo("Info the-call-pool");
        assertThat(handled.get(4)).isEqualTo("Info the-call-pool");
    }
}
