package dev.spacebench.channel;

import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.grpc.client.ChannelBuilderOptions;
import org.springframework.grpc.client.GrpcChannelBuilderCustomizer;
import org.springframework.grpc.client.GrpcChannelFactory;
import org.springframework.stereotype.Component;

/** Opens {@link AgentChannel}s to agents at run time, through Spring gRPC's channel factory. */
@Component
public class AgentChannels {

    /** Headroom over the 3 MiB chunk cap for framing. */
    static final int MAX_INBOUND_BYTES = 8 << 20;
    /**
     * HTTP/2 flow-control window. Netty's 1 MiB default equals one chunk, so a sender would wait a
     * window update per chunk; 16 MiB keeps several chunks in flight.
     */
    static final int FLOW_CONTROL_WINDOW_BYTES = 16 << 20;

    private final GrpcChannelFactory factory;

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
        GrpcChannelBuilderCustomizer<NettyChannelBuilder> customizer = (name, builder) -> {
            builder.maxInboundMessageSize(MAX_INBOUND_BYTES).flowControlWindow(FLOW_CONTROL_WINDOW_BYTES);
            if (target.startsWith("unix:")) {
                // Spring gRPC builds unix targets from a socket address without the channel
                // credentials, so Netty's default (TLS) would apply; agents speak plaintext.
                builder.usePlaintext();
            }
        };
        ManagedChannel channel = factory.createChannel(target, ChannelBuilderOptions.defaults()
                .withShutdownGracePeriod(Duration.ofSeconds(1))
                .withCustomizer(customizer));
        return new AgentChannel(channel, ClientInterceptors.intercept(channel, List.of(new TokenCredentials(token))),
                bulkDir, chunkBytes);
    }
}
