package dev.spacebench.cli;

import dev.spacebench.compare.CheckService;
import dev.spacebench.live.LiveRun;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.RunRequest;
import dev.spacebench.run.RunStatus;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.system.ApiToken;
import dev.spacebench.system.DataDirectory;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code spacebench bench}: one benchmark run for scripts. Without {@code --server} it measures in
 * this process on the app's database, unless a server is running on that database's data
 * directory (its {@code server.json}): then, as with {@code --server}, on that server through REST,
 * with the API token from {@code SPACEBENCH_API_TOKEN} or the data directory. Either way it prints
 * progress, the results table and writes result.json, samples.csv and page.md into the output
 * directory.
 *
 * <p>With {@code --baseline} it then checks the run against that baseline, as
 * {@code GET /api/runs/{id}/check} does, prints the verdict and writes check.json.
 *
 * <p>Exit codes: 0 the run succeeded (and passed its check, if asked); 1 the baseline check
 * failed; 2 bad usage, an unreadable or refused plan, an unknown baseline, an unreachable server,
 * a run that did not succeed, or a check that could not be made.
 */
@Command(name = "bench", sortOptions = false, usageHelpAutoWidth = true, exitCodeOnExecutionException = BenchCommand.FAILED,
        description = "Run one benchmark and write result.json, samples.csv and page.md.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run succeeded (and passed its baseline check, if asked)", "1:the baseline check failed",
                "2:bad usage, a refused plan, an unknown baseline, an unreachable server, a run that did not succeed, "
                        + "or a check that could not be made"})
public class BenchCommand implements Callable<Integer> {

    public static final int OK = 0;
    public static final int BASELINE_FAILED = 1;
    public static final int FAILED = 2;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--kind", paramLabel = "K", description = "kind of Space (default: the app's spacebench.space.default-kind)")
    String kind;

    @Option(names = "--compare", paramLabel = "LABEL=KIND",
            description = "a comparison run (2 to 4, repeat the option): each LABEL=KIND is one Space, measured in one run with "
                    + "the others, their blocks interleaved; ratios to the first with 95%% intervals (not with --kind, --cpus, "
                    + "--memory-mib, --name; --channels apply to every entry)")
    java.util.List<String> compare;

    @Option(names = "--name", paramLabel = "TARGET", description = "a command target of the app's spacebench.targets-file "
            + "(implies --kind command)")
    String name;

    @Option(names = "--channels", paramLabel = "C[,C…]", split = ",", description = "what to measure the Space through, in order, "
            + "e.g. agent,ssh (default: the kind's own, agent; command for --kind command)")
    List<String> channels;

    @Option(names = "--plan", paramLabel = "quick|published|FILE.json",
            description = "a preset, or a JSON file with the plan part of a POST /api/runs body (default: published)")
    String plan;

    @Option(names = "--out", paramLabel = "DIR", description = "where to write the files (default: ./spacebench-run-ID)")
    Path out;

    @Option(names = "--cpus", paramLabel = "N", description = "CPUs to ask the Space for")
    Double cpus;

    @Option(names = "--memory-mib", paramLabel = "N", description = "memory to ask the Space for, in MiB")
    Long memoryMiB;

    @Option(names = "--server", paramLabel = "URL", description = "measure on this running server, e.g. http://127.0.0.1:8080 "
            + "(default: the server running on the database's data directory, if any)")
    URI server;

    @Option(names = "--testbed", paramLabel = "NAME", description = "with --server: measure on this testbed of the server's fleet "
            + "(default: any worker that can make the kind)")
    String testbed;

    @Option(names = "--db", paramLabel = "JDBC-URL", description = "without --server: the database (default: the app's spring.datasource.url)")
    String database;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "after the run, check it against this baseline (GET /api/baselines lists them; cua-0.15.0 is built in)")
    String baseline;

    @Option(names = "--threshold", paramLabel = "RATIO",
            description = "with --baseline: the largest run / baseline ratio that passes (default: "
                    + CheckService.DEFAULT_THRESHOLD_TEXT + ", up to 10%% slower)")
    Double threshold;

    @Option(names = "--statistic", paramLabel = "p50|p95|p99", description = "with --baseline: the figure compared (default: p50)")
    String statistic;

    @Option(names = "--level", paramLabel = "N", description = "with --baseline: check only the concurrency sweep's figures "
            + "at this level (Spaces busy at once)")
    Integer level;

    private final PrintStream stdout;
    private final PrintStream stderr;
    private final boolean terminal;
    private final Map<String, String> environment;

    BenchCommand(PrintStream stdout, PrintStream stderr, boolean terminal, Map<String, String> environment) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.terminal = terminal;
        this.environment = environment;
    }

    /**
     * Runs the command in this JVM, as {@code spacebench bench ARGS} ({@link SpacebenchCommand}).
     *
     * @param terminal true to draw the progress bar in place; false for plain lines
     * @return the exit code: 0, 1 or 2 (see the class comment)
     */
    public static int execute(String[] args, PrintStream stdout, PrintStream stderr, boolean terminal) {
        return execute(args, stdout, stderr, terminal, System.getenv());
    }

    /** As {@link #execute(String[], PrintStream, PrintStream, boolean)}, reading these environment variables. */
    static int execute(String[] args, PrintStream stdout, PrintStream stderr, boolean terminal, Map<String, String> environment) {
        String[] bench = new String[args.length + 1];
        bench[0] = "bench";
        System.arraycopy(args, 0, bench, 1, args.length);
        return SpacebenchCommand.execute(bench, stdout, stderr, terminal, environment);
    }

    @Override
    public Integer call() throws Exception {
        // Until the run is queued, Ctrl-C cancels the start-up (the app this process starts stops
        // at its next bean and closes what it had opened); from then on, the run (see run()).
        AtomicBoolean cancelled = new AtomicBoolean();
        CancelOnSignal starting = new CancelOnSignal(stderr, "the start-up (nothing has been measured)", () -> cancelled.set(true));
        try {
            BaselineCheck check = BaselineCheck.of(baseline, threshold, statistic, level);
            Plan chosen = PlanArgument.read(plan);
            // A target named without a kind is a command target's: the only kind that takes a name.
            String asked = kind == null && name != null ? SpaceKinds.COMMAND : kind;
            RunRequest request = compare == null
                    ? new RunRequest(new SpaceSpec(asked, cpus, memoryMiB, null, null, null, null, null, name), chosen, testbed, channels)
                    : RunRequest.comparing(entries(), chosen, testbed);
            try (BenchBackend backend = backend(cancelled::get)) {
                if (testbed != null && backend instanceof LocalBackend) {
                    throw new BenchException("--testbed needs a server (--server URL): this process measures only on its own host");
                }
                if (check != null) {
                    backend.requireBaseline(check.baseline());
                }
                if (cancelled.get()) {
                    throw new BenchException(LocalBackend.CANCELLED);
                }
                return run(backend, request, check, starting, cancelled::get);
            }
        } catch (BenchException e) {
            e.print(stderr, "bench");
            return FAILED;
        } finally {
            starting.close();
        }
    }

    /**
     * The --compare options as entries, each LABEL=KIND, measured through --channels when given; the server checks the labels,
     * kinds and channels (a 400 names the entry).
     *
     * @throws BenchException (exit 2) with --kind, --cpus, --memory-mib or --name, or an option without its '='
     */
    private java.util.List<dev.spacebench.run.CompareEntry> entries() {
        if (kind != null || cpus != null || memoryMiB != null) {
            throw new BenchException("--compare names each Space's kind (LABEL=KIND): leave out --kind, --cpus and --memory-mib");
        }
        if (name != null) {
            // A command target has no agent, and a comparison reaches each of its Spaces through one (the server refuses it too).
            throw new BenchException("--compare measures Spaces with an agent: leave out --name (a command target is benched on its own, "
                    + "with --name and no --compare)");
        }
        java.util.List<dev.spacebench.run.CompareEntry> entries = new java.util.ArrayList<>();
        for (String given : compare) {
            int eq = given.indexOf('=');
            if (eq < 0) {
                throw new BenchException("--compare takes LABEL=KIND, e.g. --compare A=process --compare B=sandbox; was '" + given + "'");
            }
            // --channels, if given, are every entry's (the request's compare[i].channels).
            entries.add(new dev.spacebench.run.CompareEntry(given.substring(0, eq), new SpaceSpec(given.substring(eq + 1), null, null),
                    channels));
        }
        return entries;
    }

    /** A server named by --server, else one running on the database's data directory, else this process. */
    private BenchBackend backend(BooleanSupplier cancelled) {
        Path data = DataDirectory.of(database != null ? database : DataDirectory.configuredDatabaseUrl());
        if (server != null) {
            // The data directory's token is this host's server's: it goes to a loopback address only.
            Optional<String> token = ApiToken.forClient(data, environment);
            boolean sendFileToken = environment.get(ApiToken.VARIABLE) != null || isLoopback(server.getHost());
            return new RemoteBackend(server, sendFileToken ? token.orElse(null) : null, null);
        }
        return RemoteBackend.running(data, environment).map(BenchBackend.class::cast)
                .orElseGet(() -> LocalBackend.start(database, cancelled));
    }

    private static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        try {
            return name.equalsIgnoreCase("localhost") || (name.matches("[0-9.:a-fA-F]+") && InetAddress.getByName(name).isLoopbackAddress());
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** @param starting the start-up's Ctrl-C handling, closed here once the run's own takes over */
    private int run(BenchBackend backend, RunRequest request, BaselineCheck check, CancelOnSignal starting,
                    BooleanSupplier cancelled) throws Exception {
        long id = backend.submit(request);
        stdout.println("run " + id + " queued; " + backend.where());
        starting.close();
        if (cancelled.getAsBoolean()) {
            backend.cancel(id);
        }
        LiveRun last;
        try (CancelOnSignal signals = new CancelOnSignal(stderr, "run " + id + " (it keeps its samples)", () -> backend.cancel(id))) {
            last = backend.follow(id, new ProgressDisplay(stdout, terminal)::show);
        }
        Path dir = out == null ? Path.of("spacebench-run-" + id) : out;
        backend.export(id, dir);
        stdout.println();
        ResultTable.print(JsonMapper.builder().build().readTree(Files.readString(dir.resolve(Exports.RESULT_JSON))), stdout);
        stdout.println();
        stdout.println("wrote " + dir.resolve(Exports.RESULT_JSON) + ", " + Exports.SAMPLES_CSV + ", " + Exports.PAGE_MD);
        if (!last.status().equals(RunStatus.SUCCEEDED.name())) {
            stderr.println("bench: run " + id + " ended " + last.status()
                    + (last.failureReason() == null ? "" : ": " + last.failureReason()));
            return FAILED;
        }
        if (check == null) {
            return OK;
        }
        String checked = backend.check(id, check);
        Files.writeString(dir.resolve(Exports.CHECK_JSON), checked);
        JsonNode verdict = JsonMapper.builder().build().readTree(checked);
        stdout.println();
        CheckTable.print(verdict, stdout);
        stdout.println("wrote " + dir.resolve(Exports.CHECK_JSON));
        return verdict.path("verdict").asString().equals("pass") ? OK : BASELINE_FAILED;
    }
}
