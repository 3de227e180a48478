package dev.spacebench.fleet;

import dev.spacebench.SpacebenchApplication;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.DatabaseInUse;
import dev.spacebench.system.ServerFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code java -jar spacebench.jar worker [--testbed NAME] [--NAME=VALUE…]}: a worker with no web
 * server, measuring runs from the configured database (a shared PostgreSQL: the {@code postgres}
 * profile or {@code --spring.datasource.url}). It registers its testbed, heartbeats and claims the
 * runs it can make until stopped (SIGTERM ends its run INTERRUPTED, as the web app does).
 * A subcommand of {@code cli.SpacebenchCommand}; every option but {@code --testbed} and {@code --help}
 * goes to Spring as given.
 */
@Command(name = "worker", usageHelpWidth = 120,
        customSynopsis = "java -jar spacebench.jar worker [--testbed NAME] [--NAME=VALUE…]",
        description = {"A worker without web server, for a fleet on one PostgreSQL (docs/fleet.md).",
                "It registers its testbed, heartbeats, and measures the queued runs it can make from the configured database (e.g.",
                "SPACEBENCH_DB_URL=jdbc:postgresql://db:5432/spacebench --spring.profiles.active=postgres).", ""},
        footer = {"  --spacebench.worker.lease=DUR        a claimed run's lease without heartbeat (default 30s)",
                "  --spacebench.worker.heartbeat=DUR    how often the worker heartbeats (default 5s)",
                "  --NAME=VALUE                         any other Spring Boot property (docs/configuration.md)",
                "",
                "Exit code 2: bad usage, or the database is an H2 file that a server or another worker holds (a fleet needs PostgreSQL);",
                "1: the worker did not start."})
public final class WorkerCommand implements Callable<Integer> {

    /** The exit code when the database cannot be a worker's (an H2 file another process holds). */
    static final int CANNOT_START = 2;
    private static final String FLEET_DATABASE = "SPACEBENCH_DB_URL=jdbc:postgresql://HOST:5432/spacebench --spring.profiles.active=postgres";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--testbed", paramLabel = "NAME", description = "this machine's name in the fleet (default: host name)")
    String testbed;

    /** Spring's options, in the order given. */
    @Unmatched
    List<String> spring = new ArrayList<>();

    private boolean started;

    /** True once the worker's Spring application runs (it goes on in its own threads after {@link #call()} returns). */
    public boolean started() {
        return started;
    }

    @Override
    public Integer call() {
        List<String> arguments = springArguments();
        // A database another process holds is said in one line below, not by Spring's loggers with a
        // hundred lines of stack; any other start-up failure still ends with its whole stack trace.
        arguments.addAll(DatabaseInUse.FAILURE_LEFT_TO_THE_COMMAND);
        String[] springArgs = arguments.toArray(String[]::new);
        String database = DataDirectory.configuredDatabaseUrl(springArgs);
        Optional<ServerFile.LiveServer> server = ServerFile.find(DataDirectory.of(database));
        // With AUTO_SERVER=TRUE, H2 lets a second process in through the first: that is left to H2.
        boolean oneProcessOnly = DataDirectory.isH2File(database) && !database.toUpperCase(Locale.ROOT).contains("AUTO_SERVER=TRUE");
        if (oneProcessOnly && server.isPresent()) {
            System.err.println("worker: the H2 database " + database + " belongs to the server running at " + server.get().url()
                    + " (pid " + server.get().pid() + ", " + server.get().file() + ") and an H2 file opens in one process at a time: "
                    + "that server's own worker already measures its runs; a fleet of workers needs PostgreSQL (" + FLEET_DATABASE + ")");
            return CANNOT_START;
        }
        try {
            new SpringApplicationBuilder(SpacebenchApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(springArgs);
            started = true;
            return 0;
        } catch (RuntimeException e) {
            if (!DatabaseInUse.causedBy(e)) {
                e.printStackTrace();
                return 1;
            }
            System.err.println("worker: the H2 database " + database + " is open in another process (a server or another worker) and "
                    + "an H2 file opens in one process at a time: a fleet of workers needs PostgreSQL (" + FLEET_DATABASE + ")");
            return CANNOT_START;
        }
    }

    /** The parsed command line's Spring arguments (see {@link #springArguments(List)}). */
    List<String> springArguments() {
        List<String> given = new ArrayList<>(spring);
        if (testbed != null) {
            given.add(0, "--testbed=" + testbed);
        }
        return springArguments(given);
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
