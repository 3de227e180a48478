package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.agent.AgentOptions;
import dev.spacebench.agent.AgentServer;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ping and Exec, the calls the loops time, carry no gRPC deadline (whose timer wakes the channel's
 * event loop once more per call), and still end in DEADLINE_EXCEEDED once their timeout passes.
 */
class AgentChannelDeadlineTest {

    @TempDir
    Path dir;

    @Test
    void pingAndExecCarryNoDeadlineOfTheirOwnAndOtherCallsStillDo() throws Exception {
        List<String> deadlines = new CopyOnWriteArrayList<>();
        ClientInterceptor recorder = new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                deadlines.add(method.getBareMethodName() + " call " + (options.getDeadline() != null)
                        + " context " + (Context.current().getDeadline() != null));
                return next.newCall(method, options);
            }
        };
        AgentServer agent = AgentServer.start(AgentOptions.parse(List.of("--listen", "127.0.0.1:0",
                "--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString())), "t0ken");
        String target = agent.target();
        int colon = target.lastIndexOf(':');
        ManagedChannel managed = NettyChannelBuilder.forAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)))
                .usePlaintext().build();
        try (AgentChannel channel = new AgentChannel(managed,
                ClientInterceptors.intercept(managed, recorder, new TokenCredentials("t0ken")), null, 1 << 20)) {
            channel.ping(Duration.ofSeconds(30));
            assertThat(channel.exec(List.of("true"), Duration.ofSeconds(30)).exitCode()).isZero();
            channel.info(Duration.ofSeconds(30));
        } finally {
            agent.stop();
        }
        assertThat(deadlines).containsExactly("Ping call false context false", "Exec call false context false",
                "Info call true context false");
        assertThat(CallDeadlines.watched()).as("calls still watched after they ended").isZero();
    }

    @Test
    @Timeout(60) // a guard against a call that never ends, not a measurement
    void aPingThatOutlivesItsTimeoutEndsInDeadlineExceededAndTheAgentSeesItCancelled() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        Server silent = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new AgentGrpc.AgentImplBase() {
                    @Override
                    public void ping(PingRequest request, StreamObserver<PingReply> reply) {
                        // Never answers; notes when the client gives up.
                        ((ServerCallStreamObserver<PingReply>) reply).setOnCancelHandler(cancelled::countDown);
                    }
                })
                .build().start();
        int port = ((InetSocketAddress) silent.getListenSockets().get(0)).getPort();
        try (AgentChannel channel = AgentChannels.plain("127.0.0.1:" + port, "t0ken")) {
            assertThatThrownBy(() -> channel.ping(Duration.ofSeconds(1)))
                    .isInstanceOfSatisfying(AgentCallException.class, e -> {
                        assertThat(e.code()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
                        assertThat(e.getMessage()).contains("no reply within 1000 ms");
                    });
            assertThat(cancelled.await(30, TimeUnit.SECONDS)).as("the server saw the call cancelled").isTrue();
        } finally {
            silent.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        assertThat(CallDeadlines.watched()).isZero();
    }
}
