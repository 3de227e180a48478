package dev.spacebench;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.cli.SpacebenchCommand;
import dev.spacebench.protocol.NettyJfrEvents;
import dev.spacebench.space.local.AgentLauncher;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;

/**
 * The jar's entry: one jar, several roles. With no arguments, or options only ({@code --NAME=VALUE}),
 * it serves the web app and the worker ({@link SpacebenchApplication}); {@code agent} starts the
 * agent that runs inside a Space (no Spring nor picocli at all, so it starts fast); anything else,
 * {@code --help} included, is the command line {@link SpacebenchCommand}: {@code bench} (one
 * benchmark; {@code bench publish}), {@code worker} (a worker without web server for a fleet on one
 * database) and {@code floor} (bare floors).
 */
public final class Main {

    private static final String LAUNCH_MECHANISM = "jdk.lang.Process.launchMechanism";

    private Main() {}

    /**
     * The worker measures the host's spawn floor with the agent's Exec code; for that floor to be
     * like for like, this JVM must spawn the way the agent does. The JDK reads the property at the
     * first spawn, which has not happened yet here.
     */
    static void useTheAgentsLaunchMechanism() {
        if (System.getProperty(LAUNCH_MECHANISM) == null) {
            AgentLauncher.jvmOptions(null).stream()
                    .filter(option -> option.startsWith("-D" + LAUNCH_MECHANISM + "="))
                    .findFirst()
                    .ifPresent(option -> System.setProperty(LAUNCH_MECHANISM, option.substring(option.indexOf('=') + 1)));
        }
    }

    public static void main(String[] args) {
        NettyJfrEvents.turnOff(); // the app's channels and the floors alike
        // The agent before any picocli or Spring class is loaded: its start time is measured.
        if (args.length > 0 && args[0].equals("agent")) {
            AgentMain.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        boolean help = args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"));
        if (args.length == 0 || (args[0].startsWith("--") && !help)) {
            SpringApplication.run(SpacebenchApplication.class, args);
            return;
        }
        // Before bench and floor too: they measure spawn floors in this JVM.
        useTheAgentsLaunchMechanism();
        SpacebenchCommand.main(args);
    }
}
