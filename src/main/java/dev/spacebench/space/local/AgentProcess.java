package dev.spacebench.space.local;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A host process that is, or contains, an agent, started and waited for until the agent prints
 * its readiness line. Its stdin stays open as a pipe, so an agent started with
 * {@code --exit-on-stdin-eof} follows this app when it dies.
 *
 * @param process the process this app started (the agent itself, or bwrap / podman around it)
 * @param address what the agent printed after the readiness prefix: {@code tcp:HOST:PORT} or
 *     {@code unix:/path}
 */
public record AgentProcess(Process process, String address) {

    /**
     * Starts {@code command} in {@code directory}, its stderr into {@code log}, and waits for the
     * readiness line on its stdout.
     *
     * @throws SpaceException if it cannot start, exits, or is not ready within {@code readyTimeout};
     *     the message carries the last lines of {@code log}. The process tree is killed then.
     */
    public static AgentProcess start(List<String> command, Path directory, Path log, Duration readyTimeout) throws SpaceException {
        return start(command, Map.of(), directory, log, readyTimeout);
    }

    /** As {@link #start(List, Path, Path, Duration)}, with {@code environment} added to this app's. */
    public static AgentProcess start(List<String> command, Map<String, String> environment, Path directory, Path log,
            Duration readyTimeout) throws SpaceException {
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectError(log.toFile());
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new SpaceException("could not start " + command.get(0) + ": " + e.getMessage(), e);
        }
        try {
            return new AgentProcess(process, awaitReady(process, readyTimeout, log));
        } catch (SpaceException | RuntimeException e) {
            ProcessTrees.kill(process.toHandle());
            throw e;
        }
    }

    /** The gRPC target for {@link Space#target()}: {@code HOST:PORT} or {@code unix:/path}. */
    public String target() {
        return address.startsWith("tcp:") ? address.substring("tcp:".length()) : address;
    }

    private static String awaitReady(Process process, Duration timeout, Path log) throws SpaceException {
        CompletableFuture<String> ready = new CompletableFuture<>();
        // Reads stdout to its end, not only to the readiness line: a pipe nobody drains would
        // block the agent once it fills.
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    // Anywhere in the line: a VM's serial console may put escape codes before it.
                    int at = line.indexOf(AgentMain.READY_PREFIX);
                    if (at >= 0) {
                        ready.complete(line.substring(at + AgentMain.READY_PREFIX.length()).trim());
                    }
                }
            } catch (IOException ignored) {
                // the process went away; handled below
            }
            ready.completeExceptionally(new IOException("the agent exited before it was ready"
                    + exitCode(process)));
        }, "space-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new SpaceException("the agent was not ready within " + timeout.toMillis() + " ms" + logTail(log));
        } catch (ExecutionException e) {
            throw new SpaceException(e.getCause().getMessage() + logTail(log));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SpaceException("interrupted while waiting for the agent");
        }
    }

    /** " (exit code N)" once {@code process} has ended (waiting up to 1 s), or empty. */
    static String exitCode(Process process) {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? " (exit code " + process.exitValue() + ")" : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String logTail(Path log) {
        return tail(log, "stderr");
    }

    /** The last 5 non-blank lines of {@code file} as {@code "; LABEL: a | b | …"}, or empty. */
    public static String tail(Path file, String label) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1).stream().map(String::strip)
                    .filter(l -> !l.isEmpty()).toList();
            return lines.isEmpty() ? "" : "; " + label + ": " + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }
}
