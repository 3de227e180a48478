package dev.spacebench;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.cli.BenchCommand;
import dev.spacebench.cli.PublishCommand;
import dev.spacebench.fleet.WorkerCommand;
import dev.spacebench.floor.FloorCommand;
import dev.spacebench.protocol.NettyJfrEvents;
import dev.spacebench.space.local.AgentLauncher;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;

/**
 * The jar's entry: one jar, several roles. With no subcommand it serves the web app and the worker
 * ({@link SpacebenchApplication}); {@code agent} starts the agent that runs inside a Space (no
 * Spring at all, so it starts fast); {@code bench} runs one benchmark from the command line (see
 * {@code cli.BenchCommand}, which has its own Spring configuration); {@code floor} a bare floor;
 * {@code worker} a worker without web server for a fleet on one database ({@code fleet.WorkerCommand}).
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
        if (Help.asked(Arrays.asList(args))) {
            Help.print(System.out);
            return;
        }
        if (args.length > 0 && args[0].equals("agent")) {
            AgentMain.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        // Before bench and floor too: they measure spawn floors in this JVM.
        useTheAgentsLaunchMechanism();
        if (args.length > 0 && args[0].equals("floor")) {
            System.exit(FloorCommand.run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 1 && args[0].equals("bench") && args[1].equals("publish")) {
            PublishCommand.main(Arrays.copyOfRange(args, 2, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("worker")) {
            WorkerCommand.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("bench")) {
            BenchCommand.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        SpringApplication.run(SpacebenchApplication.class, args);
    }
}
