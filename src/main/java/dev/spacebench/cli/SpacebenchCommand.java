package dev.spacebench.cli;

import dev.spacebench.fleet.WorkerCommand;
import dev.spacebench.floor.FloorCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code java -jar spacebench.jar SUBCOMMAND …}: the one command line of the jar's command-line
 * roles, {@code bench} (with {@code bench publish}), {@code worker} and {@code floor} (with
 * {@code stream}, {@code ping}, {@code cost}, {@code transfer}), each a picocli subcommand with the
 * same conventions: {@code -h}/{@code --help} at every level prints its usage and exits 0; a usage
 * error prints the error and the usage to stderr and exits 2; a failure exits 1, except where a
 * command documents otherwise ({@code bench}: 2, its 1 meaning a failed baseline check).
 * {@code agent} and the web app (no subcommand) are started by {@code Main} before picocli is loaded;
 * they are listed in the help only.
 */
@Command(name = "spacebench", usageHelpWidth = 120,
        customSynopsis = "java -jar spacebench.jar [SUBCOMMAND] [OPTIONS]",
        description = {"", "One jar, several roles (SUBCOMMAND --help for each):",
                "  (none)  the web app: dashboard, REST API (/api/runs…) and the worker that measures runs",
                "  agent   the agent that runs inside a Space"},
        commandListHeading = "",
        footer = {"", "Common options of the web app (Spring Boot properties, as --NAME=VALUE):",
                "  --server.port=PORT                     web port (default 8080)",
                "  --server.address=ADDRESS               where it listens (default 127.0.0.1, loopback only)",
                "  --spring.datasource.url=JDBC_URL       where runs are stored (default: H2 under ./data)",
                "  --spacebench.space.default-kind=KIND   kind for runs that name none",
                "  --spacebench.space.ready-timeout=DUR   how long an agent may take to be ready (default 120s)",
                "  --spacebench.spaces.root=DIR           where Spaces keep their directories",
                "  -h, --help                             show this help and exit",
                "",
                "docs/configuration.md lists every property, docs/rest.md the REST API, docs/cli.md the subcommands."})
public final class SpacebenchCommand {

    /** Listed in the footer with the web app's options, which it shares the form of. */
    @Option(names = {"-h", "--help"}, usageHelp = true, hidden = true, description = "show this help and exit")
    boolean help;

    private SpacebenchCommand() {}

    /**
     * From {@code Main.main}: runs the subcommand and exits the JVM with its exit code, except after
     * a worker started (its Spring application runs on in its own threads until stopped).
     */
    public static void main(String[] args) {
        WorkerCommand worker = new WorkerCommand();
        int code = commandLine(System.out, System.err, System.console() != null, System.getenv(), worker).execute(args);
        if (code != 0 || !worker.started()) {
            System.exit(code);
        }
    }

    /** Runs {@code args} (a subcommand first) in this JVM; returns the exit code. */
    public static int execute(String[] args, PrintStream stdout, PrintStream stderr, boolean terminal, Map<String, String> environment) {
        return commandLine(stdout, stderr, terminal, environment, new WorkerCommand()).execute(args);
    }

    private static CommandLine commandLine(PrintStream stdout, PrintStream stderr, boolean terminal, Map<String, String> environment,
                                           WorkerCommand worker) {
        CommandLine bench = new CommandLine(new BenchCommand(stdout, stderr, terminal, environment))
                .addSubcommand("publish", new PublishCommand(stdout, stderr, environment));
        CommandLine root = new CommandLine(new SpacebenchCommand())
                .addSubcommand("bench", bench)
                .addSubcommand("worker", worker)
                .addSubcommand("floor", new FloorCommand());
        // The JVM options after floor cost N WARMUPS (and transfer BYTES N WARMUPS) start with '-'.
        CommandLine floor = root.getSubcommands().get("floor");
        floor.getSubcommands().get("cost").setUnmatchedOptionsArePositionalParams(true);
        floor.getSubcommands().get("transfer").setUnmatchedOptionsArePositionalParams(true);
        root.setOut(new PrintWriter(stdout, true));
        root.setErr(new PrintWriter(stderr, true));
        // The error, picocli's "Did you mean" if it has one, and always the usage of the command that was misused.
        root.setParameterExceptionHandler((e, given) -> {
            CommandLine misused = e.getCommandLine();
            misused.getErr().println(e.getMessage());
            UnmatchedArgumentException.printSuggestions(e, misused.getErr());
            misused.usage(misused.getErr());
            return misused.getCommandSpec().exitCodeOnInvalidInput();
        });
        // One line naming the command; the code is the command's own (bench's 1 means a failed check, so it answers 2).
        root.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String name = cmd.getCommandSpec().qualifiedName().substring("spacebench ".length());
            stderr.println(name + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return cmd.getCommandSpec().exitCodeOnExecutionException();
        });
        return root;
    }
}
