package dev.spacebench.cli;

import dev.spacebench.system.DataDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code spacebench bench publish --out DIR}: every published benchmark as a static site (the
 * files {@code GET /api/site.zip} holds). Like {@code bench}, it goes through the server running
 * on the database's data directory (its {@code server.json}), with the API token from
 * {@code SPACEBENCH_API_TOKEN} or the data directory, since an H2 file opens in one process only;
 * with no server there, it reads the database in this process.
 * Exit codes: 0 written; 2 bad usage, the database or server could not be read, or the directory
 * not written (said in one line).
 */
@Command(name = "publish", sortOptions = false, usageHelpAutoWidth = true, exitCodeOnExecutionException = BenchCommand.FAILED,
        description = "Write every published benchmark as a static site: index.html and one folder per benchmark, "
                + "relative links only (opens from file:// and any static host).")
public class PublishCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "the site's directory (created if missing)")
    Path out;

    @Option(names = "--db", paramLabel = "JDBC-URL", description = "the database (default: the app's spring.datasource.url); "
            + "when a server runs on it (its server.json in the data directory), the site is read from that server")
    String db;

    private final PrintStream stdout;
    private final PrintStream stderr;
    private final Map<String, String> environment;

    PublishCommand(PrintStream stdout, PrintStream stderr, Map<String, String> environment) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.environment = environment;
    }

    @Override
    public Integer call() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Path data = DataDirectory.of(db != null ? db : DataDirectory.configuredDatabaseUrl());
        try (CancelOnSignal starting = new CancelOnSignal(stderr, "the start-up (nothing has been written)", () -> cancelled.set(true));
             BenchBackend backend = RemoteBackend.running(data, environment).map(BenchBackend.class::cast)
                     .orElseGet(() -> LocalBackend.start(db, cancelled::get))) {
            if (cancelled.get()) {
                throw new BenchException(LocalBackend.CANCELLED);
            }
            int benchmarks = backend.publishSite(out);
            stdout.println("wrote " + benchmarks + " benchmark(s) to " + out.toAbsolutePath().resolve("index.html")
                    + (backend instanceof RemoteBackend remote ? ", read from the server running at " + remote.server() : ""));
            return BenchCommand.OK;
        } catch (BenchException e) {
            e.print(stderr, "bench publish");
            return BenchCommand.FAILED;
        }
    }
}
