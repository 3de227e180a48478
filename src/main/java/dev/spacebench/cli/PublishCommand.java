package dev.spacebench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code spacebench bench publish --out DIR}: every published benchmark as a static site (the
 * files {@code GET /api/site.zip} holds), written from the app's database in this process.
 * Exit codes: 0 written; 2 bad usage or the database could not be read or the directory written.
 */
@Command(name = "spacebench bench publish", sortOptions = false, usageHelpAutoWidth = true,
        description = "Write every published benchmark as a static site: index.html and one folder per benchmark, "
                + "relative links only (opens from file:// and any static host).")
public class PublishCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "the site's directory (created if missing)")
    Path out;

    @Option(names = "--db", paramLabel = "JDBC-URL", description = "the database (default: the app's spring.datasource.url); "
            + "an H2 file can be open in one process only: stop the server first, or use its GET /api/site.zip")
    String db;

    public static void main(String[] args) {
        CommandLine command = new CommandLine(new PublishCommand());
        command.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("bench publish: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        command.setOut(new PrintWriter(System.out, true));
        System.exit(command.execute(args));
    }

    @Override
    public Integer call() {
        try (LocalBackend backend = LocalBackend.start(db)) {
            int benchmarks = backend.publishSite(out);
            System.out.println("wrote " + benchmarks + " benchmark(s) to " + out.toAbsolutePath().resolve("index.html"));
            return 0;
        }
    }
}
