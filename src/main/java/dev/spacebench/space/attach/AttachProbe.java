package dev.spacebench.space.attach;

import dev.spacebench.agent.BulkDirId;
import dev.spacebench.channel.AgentCallException;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.channel.TokenCredentials;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Asks a running agent, with short deadlines, whether an attach spec can work: a Ping with the
 * token (is anything there, and does it take the token?) and, when a bulk directory is named, an
 * Info whose {@code bulk_dir_id} must equal the {@link BulkDirId} file in that directory. Used at
 * submit, so that a dead target or a wrong directory is a 400 and not a queued run that holds the
 * worker, and again when the worker creates the Space.
 */
final class AttachProbe {

    /**
     * Per call, connection included. A warm agent answers a Ping in well under a millisecond, but
     * the first call to a fresh agent JVM on a busy host took over 2 s here (HTTP/2 setup in two
     * cold JVMs); 5 s still frees the worker long before the 120 s ready timeout.
     */
    static final Duration CALL_DEADLINE = Duration.ofSeconds(5);

    private AttachProbe() {}

    /**
     * @param bulkDir the host directory named as the bulk lane, already resolved to its real path;
     *     null when none was named
     * @return field ({@code space.target}, {@code space.token}, {@code space.bulkDir}) → what failed;
     *     empty when the agent answered and the bulk directory, if any, is its own
     */
    static Map<String, String> check(AttachTarget target, String token, Path bulkDir) {
        Map<String, String> problems = new LinkedHashMap<>();
        EventLoopGroup loop = target.socket() != null ? new EpollEventLoopGroup(1) : null;
        ManagedChannel channel = open(target, loop);
        try (AgentChannel agent = new AgentChannel(channel, ClientInterceptors.intercept(channel, new TokenCredentials(token)), null,
                1 << 20)) {
            try {
                agent.ping(CALL_DEADLINE);
            } catch (AgentCallException e) {
                if (e.code() == Status.Code.UNAUTHENTICATED) {
                    problems.put("space.token", "the agent at " + target.grpcTarget() + " refused it (UNAUTHENTICATED): give the token "
                            + "that agent was started with");
                } else {
                    problems.put("space.target", "no agent answered a Ping at " + target.grpcTarget() + " within "
                            + CALL_DEADLINE.toMillis() + " ms: " + e.getMessage());
                }
                return problems;
            }
            if (bulkDir != null) {
                AgentInfo info = agent.info(CALL_DEADLINE);
                Optional<String> found = BulkDirId.read(bulkDir);
                if (info.dirs().bulkDirId().isEmpty()) {
                    problems.put("space.bulkDir", "the agent at " + target.grpcTarget() + " reports no bulk directory id (an agent "
                            + "older than this app, or one that cannot write into its --bulk-dir " + info.dirs().bulkDir()
                            + "): leave bulkDir out and every file goes through the stream");
                } else if (found.isEmpty() || !found.get().equals(info.dirs().bulkDirId())) {
                    problems.put("space.bulkDir", bulkDir + " is not the bulk directory of the agent at " + target.grpcTarget()
                            + ": its " + BulkDirId.FILE_NAME + " " + (found.isEmpty() ? "is missing" : "holds another agent's id")
                            + "; the agent's --bulk-dir is " + info.dirs().bulkDir() + " (as the agent sees it). Name the host "
                            + "directory the agent sees as its --bulk-dir, or leave bulkDir out");
                }
            }
        } catch (AgentCallException e) {
            problems.put("space.target", "the agent at " + target.grpcTarget() + " did not answer Info within "
                    + CALL_DEADLINE.toMillis() + " ms: " + e.getMessage());
        } catch (RuntimeException e) {
            // e.g. a token with characters a gRPC header cannot carry
            problems.put("space.token", "could not be sent to the agent: " + e.getMessage());
        } finally {
            channel.shutdownNow();
            try {
                channel.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (loop != null) {
                loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        }
        return problems;
    }

    private static ManagedChannel open(AttachTarget target, EventLoopGroup loop) {
        NettyChannelBuilder builder = target.socket() != null
                ? NettyChannelBuilder.forAddress(new DomainSocketAddress(target.socket().toString()))
                        .channelType(EpollDomainSocketChannel.class).eventLoopGroup(loop)
                        .withOption(ChannelOption.SO_KEEPALIVE, null)
                : NettyChannelBuilder.forAddress(target.host(), target.port());
        return builder.usePlaintext().build();
    }
}
