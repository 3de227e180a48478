package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Agent channels never retry a call: a retried round trip would be timed as one, and grpc-java's
 * retry support routes every call through a buffering stream. Shown with a service config that
 * asks for 3 attempts on UNAVAILABLE, which a channel with retries on follows.
 */
class AgentChannelsRetryTest {

    /** Retry Ping up to 3 attempts on UNAVAILABLE, as grpc-java's service config spells it. */
    private static final Map<String, Object> RETRY_PING = Map.of("methodConfig", List.of(Map.of(
            "name", List.of(Map.of("service", AgentGrpc.SERVICE_NAME, "method", "Ping")),
            "retryPolicy", Map.of("maxAttempts", 3.0, "initialBackoff", "0.01s", "maxBackoff", "0.01s",
                    "backoffMultiplier", 1.0, "retryableStatusCodes", List.of("UNAVAILABLE")))));

    @Test
    void aLeanChannelMakesOneAttemptWhereItsServiceConfigAsksForThree() throws Exception {
        assertThat(attempts(port -> NettyChannelBuilder.forAddress("127.0.0.1", port)))
                .as("attempts of one Ping on a channel with retries on (the check that the config retries)").isEqualTo(3);
        assertThat(attempts(port -> AgentChannels.lean(NettyChannelBuilder.forAddress("127.0.0.1", port))))
                .as("attempts of one Ping on an agent channel").isEqualTo(1);
    }

    /** Server-side Ping attempts for one call that always meets UNAVAILABLE. */
    private static int attempts(IntFunction<NettyChannelBuilder> builder) throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new AgentGrpc.AgentImplBase() {
                    @Override
                    public void ping(PingRequest request, StreamObserver<PingReply> reply) {
                        attempts.incrementAndGet();
                        reply.onError(Status.UNAVAILABLE.withDescription("not this time").asRuntimeException());
                    }
                })
                .build().start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        ManagedChannel channel = builder.apply(port).usePlaintext().defaultServiceConfig(RETRY_PING).build();
        try {
            assertThatThrownBy(() -> AgentGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .ping(PingRequest.getDefaultInstance()))
                    .isInstanceOf(StatusRuntimeException.class).hasMessageContaining("UNAVAILABLE");
            return attempts.get();
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
