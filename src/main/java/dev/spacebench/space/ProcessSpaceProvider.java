package dev.spacebench.space;

import dev.spacebench.agent.AgentMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The {@code process} kind: the agent as a child process of this app on the same host, with its
 * own temporary work directory, bulk directory and token. It isolates nothing; it is the
 * baseline every isolated kind is compared with.
 */
@Component
public class ProcessSpaceProvider implements SpaceProvider {

    public static final String KIND = "process";

    private final Path root;
    private final Map<String, Process> processes = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    public ProcessSpaceProvider(@Value("${spacebench.spaces.root:${java.io.tmpdir}/spacebench-spaces}") Path root) {
        this.root = root;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        Path dir = null;
        Process process = null;
        try {
            Files.createDirectories(root);
            dir = Files.createTempDirectory(root, "process-");
            String id = dir.getFileName().toString();
            Path work = Files.createDirectory(dir.resolve("work"));
            Path bulk = Files.createDirectory(dir.resolve("bulk"));
            String token = HexFormat.of().formatHex(bytes(32));
            Path tokenFile = dir.resolve("token");
            Files.writeString(tokenFile, token);
            Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));

            List<String> command = new ArrayList<>(AgentLauncher.command());
            command.addAll(List.of("--listen", "127.0.0.1:0", "--work-dir", work.toString(), "--bulk-dir", bulk.toString(),
                    "--token-file", tokenFile.toString(), "--exit-on-stdin-eof"));
            Path log = dir.resolve("agent.log");
            process = new ProcessBuilder(command)
                    .directory(work.toFile())
                    .redirectError(log.toFile())
                    .start();
            processes.put(id, process);
            String address = awaitReady(process, readyTimeout, log);
            long readyNanos = System.nanoTime() - start;

            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("isolation", "none: a child process of the app on the same host");
            facts.put("pid", Long.toString(process.pid()));
            facts.put("directory", dir.toString());
            facts.put("network", "loopback TCP " + address.substring("tcp:".length()));
            facts.put("launch mechanism", AgentLauncher.launchMechanism());
            facts.put("shape enforced", "none (the process kind cannot limit CPU or memory)");
            return new Space(id, KIND, address.substring("tcp:".length()), token, bulk, createdAt, readyNanos, facts);
        } catch (IOException | SpaceException e) {
            cleanUp(dir, process);
            throw e instanceof SpaceException se ? se : new SpaceException("could not start a process Space: " + e.getMessage(), e);
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static String awaitReady(Process process, Duration timeout, Path log) throws SpaceException {
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(AgentMain.READY_PREFIX)) {
                        ready.complete(line.substring(AgentMain.READY_PREFIX.length()).trim());
                    }
                }
            } catch (IOException ignored) {
                // the process went away; handled below
            }
            ready.completeExceptionally(new IOException("the agent exited before it was ready"));
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

    private static String logTail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "" : "; agent stderr: " + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void delete(Space space) {
        Process process = processes.remove(space.id());
        cleanUp(root.resolve(space.id()), process);
    }

    private static void cleanUp(Path dir, Process process) {
        if (process != null) {
            ProcessTrees.kill(process.toHandle());
        }
        if (dir != null) {
            FileTrees.deleteQuietly(dir);
        }
    }
}
