package dev.spacebench;

import dev.spacebench.agent.AgentMain;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * One jar, several roles: with no subcommand it serves the web app and the worker; {@code agent}
 * starts the agent that runs inside a Space (no Spring at all, so it starts fast).
 */
@SpringBootApplication
@EnableScheduling
public class SpacebenchApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("agent")) {
            AgentMain.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        SpringApplication.run(SpacebenchApplication.class, args);
    }
}
