package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.protocol.AgentProtocol;
import dev.spacebench.protocol.CallExecutors;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
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
 * A {@link BareAgentService} on the transport the agent and the host use: grpc-netty-shaded over
 * TCP loopback (127.0.0.1, a free port), plain text, with the agent's message-size limit and
 * flow-control window ({@link AgentProtocol#MAX_MESSAGE_BYTES},
 * {@link AgentProtocol#FLOW_CONTROL_WINDOW_BYTES}; the agent's server and the host's channels set
 * the same values), and the agent's call executors ({@link CallExecutors}: Ping on the transport
 * thread, the rest on a pool of its own). Or, for a Space reached through a unix socket, the same
 * over a unix socket with the agent's epoll loops (one boss, one worker).
 *
 * <p>Either the server alone ({@link #serve}, {@link #serveUnix}: what the floor's server process,
 * {@link BareServerMain}, runs for the bare ping and stream floors) or the server and a client
 * channel to it in this JVM ({@link #start}: the cost tools' in-JVM rows, {@link HarnessCost} and
 * {@link TransferCost}, whose CPU columns then hold both sides). The client channels
 * ({@link #tcpChannel}, {@link #unixChannel}) are the same either way.
 */
final class BareGrpcServer implements AutoCloseable {

    private final Server server;
    private final String address;
    private final ManagedChannel channel;
    private final ExecutorService callPool;
    private final EventLoopGroup[] groups;

    private BareGrpcServer(Server server, String address, ManagedChannel channel, ExecutorService callPool, EventLoopGroup... groups) {
        this.server = server;
        this.address = address;
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
     * The server and a client channel to it, both in this JVM, over TCP loopback.
     *
     * @param payload what ReadFile streams; may be empty
     * @throws IOException if the server cannot bind
     */
    static BareGrpcServer start(byte[] payload) throws IOException {
        return start(payload, false);
    }

    /**
     * As {@link #start(byte[])}.
     *
     * @param hash true: the service hashes (SHA-256) what it receives and sends, as the agent does
     */
    static BareGrpcServer start(byte[] payload, boolean hash) throws IOException {
        BareGrpcServer alone = serve(payload, hash);
        int port = ((InetSocketAddress) alone.server.getListenSockets().get(0)).getPort();
        return new BareGrpcServer(alone.server, alone.address, tcpChannel(port), alone.callPool);
    }

    /**
     * The server alone on 127.0.0.1, a free port (loopback only, as the agent of a process Space).
     *
     * @param payload what ReadFile streams; may be empty
     * @param hash true: the service hashes (SHA-256) what it receives and sends
     * @throws IOException if the server cannot bind
     */
    static BareGrpcServer serve(byte[] payload, boolean hash) throws IOException {
        ExecutorService callPool = callPool();
        Server server = CallExecutors.apply(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)), callPool)
                .maxInboundMessageSize(AgentProtocol.MAX_MESSAGE_BYTES)
                .flowControlWindow(AgentProtocol.FLOW_CONTROL_WINDOW_BYTES)
                .addService(new BareAgentService(payload, hash))
                .build()
                .start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        return new BareGrpcServer(server, "tcp:127.0.0.1:" + port, null, callPool);
    }

    /**
     * The server alone on a unix socket, with the agent's server options for unix sockets (epoll;
     * no SO_KEEPALIVE).
     *
     * @param socket where to bind (a stale file there is removed)
     * @throws IOException if the socket cannot be bound
     * @throws IllegalStateException if Netty's native epoll transport is unavailable
     */
    static BareGrpcServer serveUnix(byte[] payload, boolean hash, Path socket) throws IOException {
        requireEpoll();
        Files.deleteIfExists(socket);
        EpollEventLoopGroup boss = new EpollEventLoopGroup(1);
        EpollEventLoopGroup worker = new EpollEventLoopGroup(1);
        ExecutorService callPool = callPool();
        Server server = CallExecutors.apply(NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString())), callPool)
                .channelType(EpollServerDomainSocketChannel.class)
                .withChildOption(ChannelOption.SO_KEEPALIVE, null)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(worker)
                .maxInboundMessageSize(AgentProtocol.MAX_MESSAGE_BYTES)
                .flowControlWindow(AgentProtocol.FLOW_CONTROL_WINDOW_BYTES)
                .addService(new BareAgentService(payload, hash))
                .build()
                .start();
        return new BareGrpcServer(server, "unix:" + socket, null, callPool, boss, worker);
    }

    private static void requireEpoll() {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("unix sockets need Netty's native epoll transport, which is unavailable here: "
                    + Epoll.unavailabilityCause());
        }
    }

    /**
     * A plain-text channel to 127.0.0.1:{@code port}, built as the host's channel to a Space's agent
     * ({@link AgentChannels#lean}: its limits, and no retries, whose buffering a Space's round trip
     * does not pay either).
     */
    static ManagedChannel tcpChannel(int port) {
        return AgentChannels.lean(NettyChannelBuilder.forAddress("127.0.0.1", port))
                .usePlaintext()
                .build();
    }

    /**
     * A channel over the unix socket at {@code socket}, built as the host's channel to a Space's
     * agent there ({@link AgentChannels#lean}; epoll; no SO_KEEPALIVE) on {@code loop} (one thread,
     * the caller's to shut down).
     *
     * @throws IllegalStateException if Netty's native epoll transport is unavailable
     */
    static ManagedChannel unixChannel(Path socket, EventLoopGroup loop) {
        return AgentChannels.unix(socket.toString(), loop);
    }

    /** Where it listens: {@code tcp:127.0.0.1:PORT} or {@code unix:/path}. */
    String address() {
        return address;
    }

    /** @throws IllegalStateException for a server started alone */
    AgentGrpc.AgentBlockingStub blocking() {
        return AgentGrpc.newBlockingStub(requireChannel());
    }

    /** @throws IllegalStateException for a server started alone */
    AgentGrpc.AgentStub async() {
        return AgentGrpc.newStub(requireChannel());
    }

    private ManagedChannel requireChannel() {
        if (channel == null) {
            throw new IllegalStateException("this bare server was started without a client channel");
        }
        return channel;
    }

    /** Waits until the server is shut down (by {@link #close} from another thread). */
    void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public void close() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow();
        }
        server.shutdownNow();
        if (channel != null) {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
        server.awaitTermination(5, TimeUnit.SECONDS);
        callPool.shutdownNow();
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
