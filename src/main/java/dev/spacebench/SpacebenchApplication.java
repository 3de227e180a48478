package dev.spacebench;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.cli.BenchCommand;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * One jar, several roles: with no subcommand it serves the web app and the worker; {@code agent}
 * starts the agent that runs inside a Space (no Spring at all, so it starts fast); {@code bench}
 * runs one benchmark from the command line (see {@code cli.BenchCommand}).
 */
@SpringBootApplication
@EnableScheduling
public class SpacebenchApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("agent")) {
            AgentMain.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("bench")) {
            BenchCommand.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        SpringApplication.run(SpacebenchApplication.class, args);
    }
}
