package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.channel.AgentChannels;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BareAgentService} on 127.0.0.1 (a free port) and a client channel to it, both in this
 * JVM, on the transport the agent and the host use: grpc-netty-shaded over TCP loopback, plain
 * text, with the agent's message-size limit and flow-control window
 * ({@link AgentChannels#MAX_INBOUND_BYTES}, {@link AgentChannels#FLOW_CONTROL_WINDOW_BYTES};
 * the agent's server sets the same values). Default executors on both sides, as the agent and
 * Spring's channel factory have.
 */
final class BareGrpcServer implements AutoCloseable {

    private final Server server;
    private final ManagedChannel channel;

    private BareGrpcServer(Server server, ManagedChannel channel) {
        this.server = server;
        this.channel = channel;
    }

    /**
     * @param payload what ReadFile streams; may be empty
     * @throws IOException if the server cannot bind
     */
    static BareGrpcServer start(byte[] payload) throws IOException {
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .addService(new BareAgentService(payload))
                .build()
                .start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port)
                .usePlaintext()
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .build();
        return new BareGrpcServer(server, channel);
    }

    AgentGrpc.AgentBlockingStub blocking() {
        return AgentGrpc.newBlockingStub(channel);
    }

    AgentGrpc.AgentStub async() {
        return AgentGrpc.newStub(channel);
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow();
        server.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
        server.awaitTermination(5, TimeUnit.SECONDS);
    }
}
