package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.protocol.CallExecutors;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BareAgentService} on 127.0.0.1 (a free port) and a client channel to it, both in this
 * JVM, on the transport the agent and the host use: grpc-netty-shaded over TCP loopback, plain
 * text, with the agent's message-size limit and flow-control window
 * ({@link AgentChannels#MAX_INBOUND_BYTES}, {@link AgentChannels#FLOW_CONTROL_WINDOW_BYTES};
 * the agent's server sets the same values), and the agent's call executors ({@link CallExecutors}:
 * Ping on the transport thread, the rest on a pool of its own). Or, for a Space reached through a unix socket, the same over a
 * unix socket with the agent's and host's epoll loops (one boss, one worker, one client loop).
 */
final class BareGrpcServer implements AutoCloseable {

    private final Server server;
    private final ManagedChannel channel;
    private final ExecutorService callPool;
    private final EventLoopGroup[] groups;

    private BareGrpcServer(Server server, ManagedChannel channel, ExecutorService callPool, EventLoopGroup... groups) {
        this.server = server;
        this.channel = channel;
        this.callPool = callPool;
        this.groups = groups;
    }

    /** As the agent's call pool: calls other than Ping run on it. */
    private static ExecutorService callPool() {
        return Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "bare-call");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @param payload what ReadFile streams; may be empty
     * @throws IOException if the server cannot bind
     */
    static BareGrpcServer start(byte[] payload) throws IOException {
        return start(payload, false);
    }

    /**
     * @param payload what ReadFile streams; may be empty
     * @param hash true: the service hashes (SHA-256) what it receives and sends, as the agent does
     * @throws IOException if the server cannot bind
     */
    static BareGrpcServer start(byte[] payload, boolean hash) throws IOException {
        ExecutorService callPool = callPool();
        Server server = CallExecutors.apply(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)), callPool)
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .addService(new BareAgentService(payload, hash))
                .build()
                .start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port)
                .usePlaintext()
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .build();
        return new BareGrpcServer(server, channel, callPool);
    }

    /**
     * The same service on a unix socket, with the agent's server options and the host's channel
     * options for unix sockets (epoll; no SO_KEEPALIVE).
     *
     * @param socket where to bind; must not exist yet (a stale one is removed)
     * @throws IOException if the socket cannot be bound
     * @throws IllegalStateException if Netty's native epoll transport is unavailable
     */
    static BareGrpcServer startUnix(byte[] payload, Path socket) throws IOException {
        AgentChannels.unixSocketsUnavailable().ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
        Files.deleteIfExists(socket);
        EpollEventLoopGroup boss = new EpollEventLoopGroup(1);
        EpollEventLoopGroup worker = new EpollEventLoopGroup(1);
        EpollEventLoopGroup client = new EpollEventLoopGroup(1);
        ExecutorService callPool = callPool();
        Server server = CallExecutors.apply(NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString())), callPool)
                .channelType(EpollServerDomainSocketChannel.class)
                .withChildOption(ChannelOption.SO_KEEPALIVE, null)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(worker)
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .addService(new BareAgentService(payload, false))
                .build()
                .start();
        ManagedChannel channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollDomainSocketChannel.class)
                .withOption(ChannelOption.SO_KEEPALIVE, null)
                .eventLoopGroup(client)
                .usePlaintext()
                .maxInboundMessageSize(AgentChannels.MAX_INBOUND_BYTES)
                .flowControlWindow(AgentChannels.FLOW_CONTROL_WINDOW_BYTES)
                .build();
        return new BareGrpcServer(server, channel, callPool, boss, worker, client);
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
        callPool.shutdownNow();
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
