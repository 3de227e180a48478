package dev.spacebench.cli;

import dev.spacebench.baseline.BaselineNotFoundException;
import dev.spacebench.compare.CheckResult;
import dev.spacebench.live.LiveRun;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunRequest;
import dev.spacebench.run.RunStateException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Measures in this process: the app without its web server and with its worker off, on the same
 * database as a server would use (when a server runs on an H2 file, bench goes through it instead:
 * only one process opens the file). The run is queued and claimed in one transaction, so a
 * server's worker on a shared database (PostgreSQL) never sees it QUEUED.
 */
final class LocalBackend implements BenchBackend {

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration STOP_WAIT = Duration.ofSeconds(60);

    private final ConfigurableApplicationContext context;
    private final BenchServices app;
    private final String workerId;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private volatile Thread measuring;

    private LocalBackend(ConfigurableApplicationContext context) {
        this.context = context;
        this.app = context.getBean(BenchServices.class);
        this.workerId = "bench@" + app.workerId();
    }

    /**
     * Starts the app without web server or worker.
     *
     * @param databaseUrl a JDBC URL, or null for the app's configured database
     */
    static LocalBackend start(String databaseUrl) {
        List<String> args = new ArrayList<>(List.of(
                "--spacebench.worker.enabled=false",
                "--logging.level.root=WARN",
                // Warnings that say nothing about the run: an H2 newer than Flyway has verified, and
                // netty's SO_KEEPALIVE on the unix-socket channels of sandbox Spaces.
                "--logging.level.org.flywaydb=ERROR",
                "--logging.level.io.grpc.netty.shaded.io.netty.bootstrap=ERROR",
                "--spring.main.log-startup-info=false"));
        if (databaseUrl != null) {
            args.add("--spring.datasource.url=" + databaseUrl);
        }
        ConfigurableApplicationContext context = new SpringApplicationBuilder(LocalConfiguration.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .run(args.toArray(String[]::new));
        return new LocalBackend(context);
    }

    @Override
    public String where() {
        return "measuring in this process as worker " + workerId;
    }

    @Override
    public long submit(RunRequest request) {
        try {
            return app.transactions().execute(tx -> {
                Run run = app.runs().submit(request);
                if (app.runRepository().claim(run.getId(), workerId, Instant.now()) != 1) {
                    throw new IllegalStateException("run " + run.getId() + " was taken by another worker before it was committed");
                }
                return run.getId();
            });
        } catch (InvalidRequestException e) {
            throw new BenchException(RequestErrors.describe(e.errors()));
        }
    }

    @Override
    public LiveRun follow(long id, Consumer<LiveRun> progress) throws InterruptedException {
        Thread thread = new Thread(() -> app.execution().execute(id, workerId, stopping::get), "bench-run-" + id);
        measuring = thread;
        thread.start();
        LiveRun last = null;
        while (true) {
            boolean ended = !thread.isAlive();
            LiveRun now = app.live().of(app.runs().get(id));
            if (!now.equals(last)) {
                progress.accept(now);
                last = now;
            }
            if (now.finished()) {
                thread.join();
                return now;
            }
            if (ended) {
                throw new BenchException("run " + id + " stopped without finishing; the log above says why");
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    @Override
    public void requireBaseline(String name) {
        try {
            app.baselines().get(name, "baseline");
        } catch (BaselineNotFoundException e) {
            throw new BenchException("--baseline: " + e.getMessage());
        }
    }

    @Override
    public String check(long id, BaselineCheck check) {
        try {
            // The service the REST endpoint calls too: one implementation of the check, whichever way it is asked.
            CheckResult result = app.checks().check(id, check.baseline(), check.threshold(), check.statistic(), check.level());
            return app.json().writeValueAsString(result);
        } catch (InvalidRequestException e) {
            throw new BenchException("the check against " + check.baseline() + " could not be made:\n" + RequestErrors.lines(e.errors()));
        } catch (BaselineNotFoundException e) {
            throw new BenchException("--baseline: " + e.getMessage());
        }
    }

    @Override
    public void export(long id, Path dir) {
        try {
            Files.createDirectories(dir);
            // Every exporter the REST API serves, each streamed into its file.
            for (RunExporters.Found found : app.exporters().files(id, app.runs().results(id))) {
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(dir.resolve(found.file().name())))) {
                    found.exporter().write(id, found.file(), out);
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot write into " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void cancel(long id) {
        try {
            app.runs().cancel(id);
        } catch (RunStateException e) {
            // It finished in the meantime: nothing to cancel.
        }
    }

    /**
     * Writes every benchmark as a static site into {@code dir}.
     *
     * @return how many benchmarks it holds
     */
    int publishSite(Path dir) {
        return app.site().writeTo(dir);
    }

    @Override
    public void close() {
        // Only reached with a run still going when the command failed on its way; the run then
        // ends INTERRUPTED and deletes its Space before the app closes.
        stopping.set(true);
        Thread thread = measuring;
        if (thread != null) {
            try {
                thread.join(STOP_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        context.close();
    }
}
