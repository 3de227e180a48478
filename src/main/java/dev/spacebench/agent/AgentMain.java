package dev.spacebench.agent;

import dev.spacebench.protocol.AgentProtocol;
import dev.spacebench.protocol.NettyJfrEvents;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;

/**
 * The agent's entry point: a plain gRPC server, no Spring, no web server, no database, so it
 * starts fast inside a Space. Started as {@code java -jar spacebench.jar agent ...} (or with the
 * class directly). When it can serve it prints exactly one line to stdout:
 *
 * <pre>SPACEBENCH-AGENT READY tcp:127.0.0.1:41235</pre>
 *
 * (or {@code unix:/path}). Exit codes: 0 after a normal stop or {@code --help}, 2 for bad options,
 * 1 otherwise.
 */
public final class AgentMain {

    /** As {@link AgentProtocol#READY_PREFIX}. */
    public static final String READY_PREFIX = AgentProtocol.READY_PREFIX;
    public static final String TOKEN_ENV = "SPACEBENCH_AGENT_TOKEN";

    private AgentMain() {}

    public static void main(String[] args) {
        NettyJfrEvents.turnOff();
        if (AgentOptions.helpAsked(Arrays.asList(args))) {
            System.out.print(AgentOptions.USAGE);
            System.out.flush();
            return;
        }
        AgentOptions options;
        String token;
        Optional<DieAfterCalls> dieAfter;
        try {
            options = AgentOptions.parse(Arrays.asList(args));
            token = readToken(options);
            dieAfter = DieAfterCalls.parse(System.getenv(DieAfterCalls.VARIABLE));
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("spacebench agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            run(options, token, dieAfter);
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

    private static void run(AgentOptions options, String token, Optional<DieAfterCalls> dieAfter) throws Exception {
        AgentLogging.install();
        AgentServer server = AgentServer.start(options, token, dieAfter);
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "agent-shutdown"));
        System.out.println(READY_PREFIX + server.address());
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
                server.stop();
                System.exit(0);
            }, "agent-stdin-watch");
            watcher.setDaemon(true);
            watcher.start();
        }
        server.awaitTermination();
    }

    /**
     * The version Maven wrote beside the agent's classes; "unknown" when run from classes no Maven
     * build processed.
     */
    static String version() {
        Properties build = new Properties();
        try (InputStream in = AgentMain.class.getResourceAsStream("agent-version.properties")) {
            if (in != null) {
                build.load(in);
            }
        } catch (IOException ignored) {
            // fall through to "unknown"
        }
        String version = build.getProperty("version", "unknown");
        return version.isBlank() || version.startsWith("@") ? "unknown" : version;
    }
}
