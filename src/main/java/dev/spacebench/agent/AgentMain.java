package dev.spacebench.agent;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The agent's entry point: a plain gRPC server, no Spring, no web server, no database, so it
 * starts fast inside a Space. Started as {@code java -jar spacebench.jar agent ...} (or with the
 * class directly). When it can serve it prints exactly one line to stdout:
 *
 * <pre>SPACEBENCH-AGENT READY tcp:127.0.0.1:41235</pre>
 *
 * (or {@code unix:/path}). Exit codes: 0 after a normal stop, 2 for bad options, 1 otherwise.
 */
public final class AgentMain {

    /** The prefix of the readiness line; what follows it is the address to dial. */
    public static final String READY_PREFIX = "SPACEBENCH-AGENT READY ";
    public static final String TOKEN_ENV = "SPACEBENCH_AGENT_TOKEN";
    /** Headroom over the 3 MiB chunk cap for framing. */
    static final int MAX_INBOUND_BYTES = 8 << 20;

    private AgentMain() {}

    public static void main(String[] args) {
        AgentOptions options;
        String token;
        try {
            options = AgentOptions.parse(Arrays.asList(args));
            token = readToken(options);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("spacebench agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            run(options, token);
        } catch (Exception e) {
            System.err.println("spacebench agent: " + e);
            System.exit(1);
        }
    }

    private static String readToken(AgentOptions options) throws IOException {
        String token = options.tokenFile() != null
                ? Files.readString(options.tokenFile()).trim()
                : System.getenv(TOKEN_ENV);
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("no token: give --token-file FILE or set " + TOKEN_ENV);
        }
        return token;
    }

    private static void run(AgentOptions options, String token) throws Exception {
        Files.createDirectories(options.workDir());
        Files.createDirectories(options.bulkDir());
        WorkDir workDir = new WorkDir(options.workDir());
        BulkLane bulkLane = new BulkLane(options.bulkDir(), workDir);
        ExecutorService ioPool = Executors.newCachedThreadPool(daemon("agent-io"));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("agent-timer"));
        AgentService service = new AgentService(workDir, bulkLane, ioPool, timer, version());

        NettyServerBuilder builder;
        if (options.listen().isUnix()) {
            Files.deleteIfExists(options.listen().unixSocket());
            builder = NettyServerBuilder.forAddress(new DomainSocketAddress(options.listen().unixSocket().toString()))
                    .channelType(EpollServerDomainSocketChannel.class)
                    .bossEventLoopGroup(new EpollEventLoopGroup(1))
                    .workerEventLoopGroup(new EpollEventLoopGroup(1));
        } else {
            builder = NettyServerBuilder.forAddress(new InetSocketAddress(options.listen().host(), options.listen().port()));
        }
        Server server = builder
                .maxInboundMessageSize(MAX_INBOUND_BYTES)
                // Netty's 1 MiB default window is one chunk: the sender would stall once per chunk.
                .flowControlWindow(16 << 20)
                .addService(ServerInterceptors.intercept(service, new TokenInterceptor(token)))
                .build()
                .start();

        String address = options.listen().isUnix()
                ? "unix:" + options.listen().unixSocket()
                : "tcp:" + hostForDialing(options.listen().host()) + ":" + ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "agent-shutdown"));
        System.out.println(READY_PREFIX + address);
        System.out.flush();

        if (options.exitOnStdinEof()) {
            // The host keeps our stdin open; when the host process dies, even by SIGKILL, the pipe
            // closes and the agent follows it instead of being left behind.
            Thread watcher = new Thread(() -> {
                try (InputStream in = System.in) {
                    while (in.read() != -1) {
                        // discard
                    }
                } catch (IOException ignored) {
                    // a broken stdin means the same as EOF
                }
                server.shutdownNow();
                System.exit(0);
            }, "agent-stdin-watch");
            watcher.setDaemon(true);
            watcher.start();
        }
        server.awaitTermination();
    }

    private static String hostForDialing(String host) {
        if (host.equals("0.0.0.0") || host.equals("::")) {
            return "127.0.0.1";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }

    static String version() {
        Properties build = new Properties();
        try (InputStream in = AgentMain.class.getResourceAsStream("/META-INF/build-info.properties")) {
            if (in != null) {
                build.load(in);
            }
        } catch (IOException ignored) {
            // fall through to "unknown"
        }
        return build.getProperty("build.version", "unknown");
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
