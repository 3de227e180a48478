package dev.spacebench.fleet;

import dev.spacebench.SpacebenchApplication;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.DatabaseInUse;
import dev.spacebench.system.ServerFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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

            Exit code 2: the database is an H2 file that a server or another worker holds (a fleet needs PostgreSQL).
            """;

    /** The exit code when the database cannot be a worker's (an H2 file another process holds). */
    static final int CANNOT_START = 2;
    private static final String FLEET_DATABASE = "SPACEBENCH_DB_URL=jdbc:postgresql://HOST:5432/spacebench --spring.profiles.active=postgres";

    private WorkerCommand() {}

    /** @param args {@code --testbed NAME} or {@code --testbed=NAME}; anything else goes to Spring as given */
    public static void main(String[] args) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.print(USAGE);
            return;
        }
        List<String> arguments = new ArrayList<>(springArguments(List.of(args)));
        // A database another process holds is said in one line below, not by Spring's loggers with a
        // hundred lines of stack; any other start-up failure still ends with its whole stack trace.
        arguments.addAll(DatabaseInUse.FAILURE_LEFT_TO_THE_COMMAND);
        String[] spring = arguments.toArray(String[]::new);
        String database = DataDirectory.configuredDatabaseUrl(spring);
        Optional<ServerFile.LiveServer> server = ServerFile.find(DataDirectory.of(database));
        // With AUTO_SERVER=TRUE, H2 lets a second process in through the first: that is left to H2.
        boolean oneProcessOnly = DataDirectory.isH2File(database) && !database.toUpperCase(Locale.ROOT).contains("AUTO_SERVER=TRUE");
        if (oneProcessOnly && server.isPresent()) {
            System.err.println("worker: the H2 database " + database + " belongs to the server running at " + server.get().url()
                    + " (pid " + server.get().pid() + ", " + server.get().file() + ") and an H2 file opens in one process at a time: "
                    + "that server's own worker already measures its runs; a fleet of workers needs PostgreSQL (" + FLEET_DATABASE + ")");
            System.exit(CANNOT_START);
        }
        try {
            new SpringApplicationBuilder(SpacebenchApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(spring);
        } catch (RuntimeException e) {
            if (!DatabaseInUse.causedBy(e)) {
                throw e;
            }
            System.err.println("worker: the H2 database " + database + " is open in another process (a server or another worker) and "
                    + "an H2 file opens in one process at a time: a fleet of workers needs PostgreSQL (" + FLEET_DATABASE + ")");
            System.exit(CANNOT_START);
        }
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
