package dev.spacebench.space.container;

import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.ProcessTrees;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The container engine's command line tool, podman or docker, and the short commands the
 * container kind runs with it (info, inspect, rm).
 *
 * @param binary the tool's path
 * @param name {@code podman} or {@code docker}
 */
record ContainerCli(Path binary, String name) {

    /** What a short command printed (stdout and stderr together) and its exit code; -1 on timeout. */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }

        /** The last non-blank output line, for error messages. */
        String lastLine() {
            List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).trim();
        }
    }

    /**
     * @param configured {@code podman}, {@code docker}, a path to either, or blank: podman if on
     *     PATH, else docker
     */
    static Optional<ContainerCli> find(String configured) {
        if (configured != null && !configured.isBlank()) {
            Path given = Path.of(configured);
            Optional<Path> binary = given.isAbsolute() ? Optional.of(given).filter(p -> p.toFile().canExecute())
                    : Executables.onPath(configured);
            return binary.map(b -> new ContainerCli(b, b.getFileName().toString()));
        }
        for (String candidate : List.of("podman", "docker")) {
            Optional<Path> binary = Executables.onPath(candidate);
            if (binary.isPresent()) {
                return Optional.of(new ContainerCli(binary.get(), candidate));
            }
        }
        return Optional.empty();
    }

    boolean isPodman() {
        return name.startsWith("podman");
    }

    /** Runs {@code cli args…} and waits at most {@code timeout}; kills it after that. */
    Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            // Drained while it runs, so a long output cannot fill the pipe and stall it.
            CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
                try {
                    return process.getInputStream().readAllBytes();
                } catch (IOException e) {
                    return new byte[0];
                }
            }, ContainerCli::daemon);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                ProcessTrees.kill(process.toHandle());
                return new Result(-1, String.join(" ", command) + " did not finish within " + timeout.toMillis() + " ms");
            }
            return new Result(process.exitValue(), new String(output.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, "could not run " + binary + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted while running " + binary);
        }
    }

    /** A thread per read: the common pool is one thread on a 2-core host, and this read blocks. */
    private static void daemon(Runnable task) {
        Thread thread = new Thread(task, "container-cli-output");
        thread.setDaemon(true);
        thread.start();
    }
}
