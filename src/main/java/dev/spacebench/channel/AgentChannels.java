package dev.spacebench.channel;

import dev.spacebench.protocol.AgentProtocol;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import jakarta.annotation.PreDestroy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.springframework.grpc.client.ChannelBuilderOptions;
import org.springframework.grpc.client.GrpcChannelBuilderCustomizer;
import org.springframework.grpc.client.GrpcChannelFactory;
import org.springframework.stereotype.Component;

/**
 * Opens {@link AgentChannel}s to agents at run time: TCP targets through Spring gRPC's channel
 * factory, unix sockets directly on one shared epoll event loop.
 *
 * <p>Why not the factory for unix sockets: Spring gRPC 1.1.2 builds each such channel with a new
 * {@code EpollEventLoopGroup} that nobody shuts down (12 file descriptors and up to 4 threads
 * leaked per run on a 2-core host), and without the channel credentials, so TLS applies where the
 * agent speaks plaintext.
 */
@Component
public class AgentChannels {

    /** As {@link AgentProtocol#MAX_MESSAGE_BYTES}. */
    public static final int MAX_INBOUND_BYTES = AgentProtocol.MAX_MESSAGE_BYTES;
    /** As {@link AgentProtocol#FLOW_CONTROL_WINDOW_BYTES}. */
    public static final int FLOW_CONTROL_WINDOW_BYTES = AgentProtocol.FLOW_CONTROL_WINDOW_BYTES;

    private final GrpcChannelFactory factory;
    private EventLoopGroup unixLoop;

    public AgentChannels(GrpcChannelFactory factory) {
        this.factory = factory;
    }

    /**
     * @param target {@code HOST:PORT} or {@code unix:/path}
     * @param token the Space's token, sent on every call
     * @param bulkDir host path of the bulk lane, or null
     * @param chunkBytes bytes per stream message
     */
    public AgentChannel open(String target, String token, Path bulkDir, int chunkBytes) {
        ManagedChannel channel = target.startsWith("unix:") ? openUnix(target.substring("unix:".length())) : openTcp(target);
        return new AgentChannel(channel, ClientInterceptors.intercept(channel, List.of(new TokenCredentials(token))),
                bulkDir, chunkBytes);
    }

    /**
     * A channel to an agent on TCP, without Spring's channel factory (for tools outside the app: the
     * harness-cost tool, the training agent of the class-data archive), with the same message-size
     * limit and flow-control window.
     *
     * @param hostPort {@code HOST:PORT}
     * @param token the agent's token, sent on every call
     */
    public static AgentChannel plain(String hostPort, String token) {
        return plain(hostPort, token, null);
    }

    /** As {@link #plain(String, String)}, with a bulk lane at {@code bulkDir} (null: none). */
    public static AgentChannel plain(String hostPort, String token, Path bulkDir) {
        int colon = hostPort.lastIndexOf(':');
        ManagedChannel managed = lean(NettyChannelBuilder.forAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))))
                .usePlaintext()
                .build();
        return new AgentChannel(managed, ClientInterceptors.intercept(managed, new TokenCredentials(token)), bulkDir, AgentProtocol.DEFAULT_CHUNK_BYTES);
    }

    private ManagedChannel openTcp(String target) {
        GrpcChannelBuilderCustomizer<NettyChannelBuilder> customizer = (name, builder) -> lean(builder);
        return factory.createChannel(target, ChannelBuilderOptions.defaults()
                .withShutdownGracePeriod(Duration.ofSeconds(1))
                .withCustomizer(customizer));
    }

    /**
     * What every agent channel gets, whoever builds it: the message-size limit, the flow-control
     * window, and no retries.
     *
     * <p>Why no retries: grpc-java's retry support (on by default) routes every call through a
     * {@code RetriableStream} that buffers what it sends, in case it must send it again. The agent
     * is on this host and no plan asks for a retry, and a retried round trip would be timed as one.
     * Measured on a 2-vCPU host (a real agent over TCP, blocks of 2,000 pings): 2.7 KB less heap
     * allocated per round trip (8.6 → 5.9 KB) and 0.3–0.4 fewer wake-ups of the event loop.
     *
     * @return {@code builder}
     */
    public static NettyChannelBuilder lean(NettyChannelBuilder builder) {
        return builder.maxInboundMessageSize(MAX_INBOUND_BYTES)
                .flowControlWindow(FLOW_CONTROL_WINDOW_BYTES)
                .disableRetry();
    }

    /**
     * Why this JVM cannot open unix-socket channels, or empty when it can. They need Netty's native
     * epoll transport, which is missing off Linux, on CPUs it has no library for, and when disabled
     * with {@code -Dio.grpc.netty.shaded.io.netty.transport.noNative=true}.
     */
    public static Optional<String> unixSocketsUnavailable() {
        return Epoll.isAvailable() ? Optional.empty()
                : Optional.of("this JVM cannot open unix-socket channels: Netty's native epoll transport is unavailable ("
                        + plainCause(Epoll.unavailabilityCause()) + ")");
    }

    /**
     * Netty's cause in words for a user: its message without the exception's class, and the
     * property under the name this app's (shaded) Netty reads.
     */
    static String plainCause(Throwable cause) {
        Throwable root = cause;
        while (root != null && root.getMessage() == null && root.getCause() != null) {
            root = root.getCause();
        }
        if (root == null || root.getMessage() == null) {
            return "its native library did not load";
        }
        return root.getMessage().replace("-Dio.netty.transport.noNative", "-Dio.grpc.netty.shaded.io.netty.transport.noNative")
                .replace("explicit disabled", "explicitly disabled");
    }

    private ManagedChannel openUnix(String socket) {
        return unix(socket, unixLoop());
    }

    /**
     * A plain-text channel over the unix socket at {@code socket}, as every agent channel there is
     * built ({@link #lean}, epoll, no SO_KEEPALIVE), on {@code loop} (the caller's to shut down).
     *
     * @throws IllegalStateException naming why, where unix sockets cannot be used (instead of a link error)
     */
    public static ManagedChannel unix(String socket, EventLoopGroup loop) {
        unixSocketsUnavailable().ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
        return lean(NettyChannelBuilder.forAddress(new DomainSocketAddress(socket)))
                .channelType(EpollDomainSocketChannel.class)
                // gRPC sets SO_KEEPALIVE on every transport; a unix socket has no such option and
                // Netty logs a warning per connection. A null value removes it from the bootstrap.
                .withOption(ChannelOption.SO_KEEPALIVE, null)
                .eventLoopGroup(loop)
                .usePlaintext()
                .build();
    }

    /** One loop thread: runs measure one Space at a time, and unix sockets need no more. */
    private synchronized EventLoopGroup unixLoop() {
        if (unixLoop == null) {
            unixLoop = new EpollEventLoopGroup(1);
        }
        return unixLoop;
    }

    /** Stops the unix-socket event loop, closing any channel still on it; at app shutdown. */
    @PreDestroy
    public synchronized void close() {
        if (unixLoop != null) {
            unixLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            unixLoop = null;
        }
    }
}
