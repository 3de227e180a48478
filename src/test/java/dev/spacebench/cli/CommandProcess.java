package dev.spacebench.cli;

import dev.spacebench.ChildApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A subcommand of the jar ({@code bench}, {@code bench publish}, {@code worker}) in a JVM of its
 * own, as a user runs it from a shell: its working directory, environment, stdout and stderr its own.
 */
final class CommandProcess {

    /** How a command ended: its exit code and everything it printed. */
    record Finished(int code, String stdout, String stderr) {
        /** stdout and stderr together, as a terminal shows them. */
        String output() {
            return stdout + stderr;
        }
    }

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private CommandProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code java … dev.spacebench.Main ARGS} in {@code dir} (its output goes to files there)
     * with the test's environment less the app's own variables, plus {@code environment}.
     */
    static CommandProcess start(Path dir, Map<String, String> environment, String... args) throws IOException {
        String name = String.join("-", args).replaceAll("[^\\w-]", "_");
        name = name.substring(0, Math.min(40, name.length()));
        Path out = Files.createTempFile(dir, name, ".stdout");
        Path err = Files.createTempFile(dir, name, ".stderr");
        ProcessBuilder builder = new ProcessBuilder(ChildApp.mainCommand(List.of(), List.of(args))).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().keySet().removeIf(k -> k.startsWith("SPACEBENCH_") || k.startsWith("SPRING_"));
        builder.environment().putAll(environment);
        return new CommandProcess(builder.start(), out, err);
    }

    /** Starts the command and waits for it to end. */
    static Finished run(Path dir, Map<String, String> environment, String... args) throws Exception {
        return start(dir, environment, args).await(Duration.ofSeconds(240));
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Sends it a signal as the shell's Ctrl-C (INT) or kill (TERM) does. */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -s " + name + " " + process.pid() + " failed");
        }
    }

    /** Waits for it to end (killing it and failing after {@code timeout}). */
    Finished await(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the command did not end within " + timeout + "; it printed:\n" + Files.readString(stdout)
                    + Files.readString(stderr));
        }
        return new Finished(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
    }

    void kill() {
        process.destroyForcibly();
    }
}
