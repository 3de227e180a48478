package dev.spacebench.agent;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.TokenCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The real {@link AgentService} (real files, real processes) behind an in-process gRPC server, and
 * the host's real {@link AgentChannel} to it: the whole protocol path without a socket.
 */
public final class InProcessAgent implements AutoCloseable {

    public static final String TOKEN = "in-process-test-token";

    private final Server server;
    private final ExecutorService ioPool = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final String name = InProcessServerBuilder.generateName();
    private final Path bulkDir;

    /** Serves an agent whose work directory is {@code dir/work} and bulk directory {@code dir/bulk}. */
    public InProcessAgent(Path dir) throws IOException {
        WorkDir workDir = new WorkDir(Files.createDirectories(dir.resolve("work")));
        bulkDir = Files.createDirectories(dir.resolve("bulk"));
        BulkLane bulkLane = new BulkLane(bulkDir, workDir);
        AgentService service = new AgentService(workDir, bulkLane, ioPool, timer, "test");
        server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(service, new TokenInterceptor(TOKEN)))
                .build().start();
    }

    /** A channel that sends {@code token}; no bulk lane, chunks of {@code chunkBytes}. */
    public AgentChannel channel(String token, int chunkBytes) {
        return channel(token, chunkBytes, List.of());
    }

    /** As {@link #channel(String, int)}, each call also through {@code interceptors} (e.g. to count calls). */
    public AgentChannel channel(String token, int chunkBytes, List<ClientInterceptor> interceptors) {
        ManagedChannel managed = InProcessChannelBuilder.forName(name).build();
        List<ClientInterceptor> all = new java.util.ArrayList<>(interceptors);
        all.add(new TokenCredentials(token));
        return new AgentChannel(managed, ClientInterceptors.intercept(managed, all), null, chunkBytes);
    }

    /** As {@link #channel(String, int)}, with the agent's bulk directory as its bulk lane. */
    public AgentChannel bulkChannel(String token, int chunkBytes) {
        ManagedChannel managed = InProcessChannelBuilder.forName(name).build();
        return new AgentChannel(managed, ClientInterceptors.intercept(managed, List.of(new TokenCredentials(token))), bulkDir, chunkBytes);
    }

    @Override
    public void close() {
        server.shutdownNow();
        ioPool.shutdownNow();
        timer.shutdownNow();
    }
}
