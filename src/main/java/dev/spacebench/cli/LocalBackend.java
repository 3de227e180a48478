package dev.spacebench.cli;

import dev.spacebench.baseline.BaselineNotFoundException;
import dev.spacebench.compare.CheckResult;
import dev.spacebench.live.LiveRun;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunRequest;
import dev.spacebench.run.RunStateException;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.DatabaseInUse;
import dev.spacebench.system.ServerFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.beans.factory.config.BeanPostProcessor;
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
     * @param cancelled polled as each bean is made: once true, the start-up stops there (Spring
     *     closes what it had made, the database among it) and this throws {@link #CANCELLED}'s message
     * @throws BenchException when the start-up was cancelled, or the database is an H2 file another
     *     process holds (one line each); {@link StartFailed} for any other reason
     */
    static LocalBackend start(String databaseUrl, BooleanSupplier cancelled) {
        List<String> args = new ArrayList<>(List.of(
                "--spacebench.worker.enabled=false",
                "--logging.level.root=WARN",
                // Warnings that say nothing about the run: an H2 newer than Flyway has verified, and
                // netty's SO_KEEPALIVE on the unix-socket channels of sandbox Spaces.
                "--logging.level.org.flywaydb=ERROR",
                "--logging.level.io.grpc.netty.shaded.io.netty.bootstrap=ERROR",
                "--spring.main.log-startup-info=false"));
        // A failed start-up is reported by the command (startFailure), once, in one line when it can.
        args.addAll(DatabaseInUse.FAILURE_LEFT_TO_THE_COMMAND);
        if (databaseUrl != null) {
            args.add("--spring.datasource.url=" + databaseUrl);
        }
        try {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(LocalConfiguration.class)
                    .web(WebApplicationType.NONE)
                    .bannerMode(Banner.Mode.OFF)
                    .initializers(starting -> starting.getBeanFactory().addBeanPostProcessor(new StopWhenCancelled(cancelled)))
                    .run(args.toArray(String[]::new));
            return new LocalBackend(context);
        } catch (RuntimeException e) {
            throw startFailure(e, databaseUrl != null ? databaseUrl : DataDirectory.configuredDatabaseUrl());
        }
    }

    /** What the command says when Ctrl-C came before anything was measured. */
    static final String CANCELLED = "cancelled while starting: nothing was measured or written";

    private static BenchException startFailure(RuntimeException e, String databaseUrl) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StartCancelled) {
                return new BenchException(CANCELLED);
            }
        }
        if (DatabaseInUse.causedBy(e)) {
            return new BenchException("the database " + databaseUrl + " is open in another process (an H2 file opens in one process "
                    + "at a time): stop that server or worker, or let this command go through the server (it does when the "
                    + "server's " + ServerFile.FILE_NAME + " is in " + DataDirectory.of(databaseUrl) + ")");
        }
        return new StartFailed(e);
    }

    /** The app could not start here for a reason with no one-line answer: the command prints its stack trace. */
    static final class StartFailed extends BenchException {
        StartFailed(Throwable cause) {
            super("the app could not start in this process: " + deepest(cause), cause);
        }

        private static String deepest(Throwable e) {
            Throwable t = e;
            while (t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            }
            return t.getMessage() == null ? t.toString() : t.getMessage();
        }
    }

    /** Thrown into Spring's start-up by {@link StopWhenCancelled}: Spring then destroys what it made and gives up. */
    private static final class StartCancelled extends RuntimeException {
        StartCancelled() {
            super(CANCELLED, null, false, false);
        }
    }

    /** Stops the start-up at the next bean once it has been cancelled (Ctrl-C), in the thread that starts it. */
    private record StopWhenCancelled(BooleanSupplier cancelled) implements BeanPostProcessor {
        @Override
        public Object postProcessBeforeInitialization(Object bean, String beanName) {
            if (cancelled.getAsBoolean()) {
                throw new StartCancelled();
            }
            return bean;
        }
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

    @Override
    public int publishSite(Path dir) {
        try {
            return app.site().writeTo(dir);
        } catch (UncheckedIOException e) {
            throw new BenchException("cannot write the site into " + dir + ": " + e.getCause().getMessage(), e);
        }
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
