package dev.spacebench.space;

import dev.spacebench.channel.AgentChannel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.TimeUnit;

/**
 * Opens {@link AgentChannel}s to a Space without a Spring context: grpc-netty-shaded directly,
 * with the token header the agent requires. One event loop for unix sockets, closed with this.
 */
public final class TestChannels implements AutoCloseable {

    public static final int CHUNK_BYTES = 1 << 20;

    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final EventLoopGroup unixLoop = new EpollEventLoopGroup(1);

    public AgentChannel open(Space space) {
        NettyChannelBuilder builder = space.target().startsWith("unix:")
                ? NettyChannelBuilder.forAddress(new DomainSocketAddress(space.target().substring("unix:".length())))
                        .channelType(EpollDomainSocketChannel.class).eventLoopGroup(unixLoop)
                : NettyChannelBuilder.forTarget(space.target());
        ManagedChannel channel = builder.usePlaintext()
                .maxInboundMessageSize(8 << 20)
                .flowControlWindow(16 << 20)
                .build();
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + space.token());
        return new AgentChannel(channel, ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers)),
                space.bulkDir(), CHUNK_BYTES);
    }

    @Override
    public void close() {
        unixLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
