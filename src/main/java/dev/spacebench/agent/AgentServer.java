package dev.spacebench.agent;

import dev.spacebench.protocol.AgentProtocol;
import dev.spacebench.protocol.CallExecutors;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/** A running agent: the gRPC server with the token check, bound where the options say. */
public final class AgentServer {


    private final Server server;
    private final String address;
    private final ExecutorService ioPool;
    private final ExecutorService callPool;
    private final ScheduledExecutorService timer;
    private final EventLoopGroup[] groups;

    private AgentServer(Server server, String address, ExecutorService ioPool, ExecutorService callPool, ScheduledExecutorService timer,
            EventLoopGroup... groups) {
        this.server = server;
        this.address = address;
        this.ioPool = ioPool;
        this.callPool = callPool;
        this.timer = timer;
        this.groups = groups;
    }

    /**
     * Creates the work and bulk directories if needed and starts serving.
     *
     * @param token the Space's token; calls without it get UNAUTHENTICATED
     * @throws IOException if the directories cannot be made or the address cannot be bound
     */
    public static AgentServer start(AgentOptions options, String token) throws IOException {
        return start(options, token, Optional.empty());
    }

    /**
     * As {@link #start(AgentOptions, String)}, with the fault {@code dieAfter} asks for
     * ({@link DieAfterCalls}) when present; it sees every call first.
     */
    static AgentServer start(AgentOptions options, String token, Optional<DieAfterCalls> dieAfter) throws IOException {
        Files.createDirectories(options.workDir());
        Files.createDirectories(options.bulkDir());
        WorkDir workDir = new WorkDir(options.workDir());
        BulkLane bulkLane = new BulkLane(options.bulkDir(), workDir);
        ExecutorService ioPool = Executors.newCachedThreadPool(daemon("agent-io"));
        ExecutorService callPool = Executors.newCachedThreadPool(daemon("agent-call"));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("agent-timer"));
        AgentService service = new AgentService(workDir, bulkLane, ioPool, timer, AgentMain.version(), callPool);

        NettyServerBuilder builder;
        EventLoopGroup[] groups = {};
        if (options.listen().isUnix()) {
            Files.deleteIfExists(options.listen().unixSocket());
            EpollEventLoopGroup boss = new EpollEventLoopGroup(1);
            EpollEventLoopGroup worker = new EpollEventLoopGroup(1);
            groups = new EventLoopGroup[] {boss, worker};
            builder = NettyServerBuilder.forAddress(new DomainSocketAddress(options.listen().unixSocket().toString()))
                    .channelType(EpollServerDomainSocketChannel.class)
                    // gRPC sets SO_KEEPALIVE on every accepted connection; a unix socket has no such
                    // option and Netty warns once per connection. A null value removes it.
                    .withChildOption(ChannelOption.SO_KEEPALIVE, null)
                    .bossEventLoopGroup(boss)
                    .workerEventLoopGroup(worker);
        } else {
            builder = NettyServerBuilder.forAddress(new InetSocketAddress(options.listen().host(), options.listen().port()));
        }
        Server server = CallExecutors.apply(builder, callPool)
                .maxInboundMessageSize(AgentProtocol.MAX_MESSAGE_BYTES)
                .flowControlWindow(AgentProtocol.FLOW_CONTROL_WINDOW_BYTES)
                // The last interceptor listed sees a call first.
                .addService(dieAfter.isPresent()
                        ? ServerInterceptors.intercept(service, new TokenInterceptor(token), dieAfter.get())
                        : ServerInterceptors.intercept(service, new TokenInterceptor(token)))
                .build()
                .start();
        service.listening();
        String address = options.listen().isUnix()
                ? "unix:" + options.listen().unixSocket()
                : "tcp:" + hostForDialing(options.listen().host()) + ":" + ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        return new AgentServer(server, address, ioPool, callPool, timer, groups);
    }

    /** Where to dial it: {@code tcp:HOST:PORT} or {@code unix:/path}. */
    public String address() {
        return address;
    }

    /** The address as a gRPC target: {@code HOST:PORT} or {@code unix:/path}. */
    public String target() {
        return address.startsWith("tcp:") ? address.substring("tcp:".length()) : address;
    }

    public void stop() {
        server.shutdownNow();
        try {
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ioPool.shutdownNow();
        callPool.shutdownNow();
        timer.shutdownNow();
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    private static String hostForDialing(String host) {
        if (host.equals("0.0.0.0") || host.equals("::")) {
            return "127.0.0.1";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }

    static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
