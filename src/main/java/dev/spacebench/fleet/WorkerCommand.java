package dev.spacebench.fleet;

import dev.spacebench.SpacebenchApplication;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * {@code java -jar spacebench.jar worker [--testbed NAME] [--NAME=VALUE…]}: a worker with no web
 * server, measuring runs from the configured database (a shared PostgreSQL: the {@code postgres}
 * profile or {@code --spring.datasource.url}). It registers its testbed, heartbeats and claims the
 * runs it can make until stopped (SIGTERM ends its run INTERRUPTED, as the web app does).
 */
public final class WorkerCommand {

    static final String USAGE = """
            Usage: java -jar spacebench.jar worker [--testbed NAME] [--NAME=VALUE…]

            A worker without web server: registers its testbed, heartbeats, and measures the queued runs
            it can make from the configured database (for a fleet: one PostgreSQL, e.g.
            SPACEBENCH_DB_URL=jdbc:postgresql://db:5432/spacebench --spring.profiles.active=postgres).

              --testbed NAME                       this machine's name in the fleet (default: host name)
              --spacebench.worker.lease=DUR        a claimed run's lease without heartbeat (default 30s)
              --spacebench.worker.heartbeat=DUR    how often the worker heartbeats (default 5s)
              -h, --help                           show this help and exit
            """;

    private WorkerCommand() {}

    /** @param args {@code --testbed NAME} or {@code --testbed=NAME}; anything else goes to Spring as given */
    public static void main(String[] args) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.print(USAGE);
            return;
        }
        new SpringApplicationBuilder(SpacebenchApplication.class)
                .web(WebApplicationType.NONE)
                .run(springArguments(List.of(args)).toArray(String[]::new));
    }

    /** The worker's Spring arguments: the worker on, {@code --testbed} as its property. */
    static List<String> springArguments(List<String> args) {
        List<String> spring = new ArrayList<>();
        spring.add("--spacebench.worker.enabled=true");
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--testbed") && i + 1 < args.size()) {
                spring.add("--spacebench.worker.testbed=" + args.get(++i));
            } else if (arg.startsWith("--testbed=")) {
                spring.add("--spacebench.worker.testbed=" + arg.substring("--testbed=".length()));
            } else {
                spring.add(arg);
            }
        }
        return spring;
    }
}
