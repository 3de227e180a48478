package dev.spacebench.space.local;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.space.FileTrees;
import dev.spacebench.space.SpaceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The agent's class-data sharing archive (AppCDS, the JDK's dynamic archive): the classes an agent
 * loads from its start through its first Exec, kept parsed and verified in one file that every
 * later agent maps instead of reading ~2,400 classes from its jars. Measured with
 * {@code spacebench.jar floor cost} and by hand at load 20: agent start 2.1–2.5 s CPU without,
 * 1.2–1.3 s with.
 *
 * <p>Made once per unpacked agent class path ({@link AgentClassPath}; its {@code classes.jar} sits
 * beside it), off every measured path: a training agent started with
 * {@code -XX:ArchiveClassesAtExit} answers the calls a run makes (Ping, Info, Exec of {@code true}
 * and {@code sh -c true}) and is stopped with SIGTERM; the JVM writes the archive as it exits, and
 * the file is moved into place only when complete. A class path with a directory on it (tests, an
 * IDE) cannot have one; agents then start without, as they would with a stale or broken archive
 * ({@code -Xshare:auto} falls back to plain loading).
 */
public final class AgentArchive {

    /** The archive's file name starts so, then the hash of its class path ({@link #location}). */
    static final String PREFIX = "agent-";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private AgentArchive() {}

    /** The archive for these class path entries, when one has been made. */
    public static Optional<Path> find(List<Path> classPath) {
        return location(classPath).filter(Files::isRegularFile);
    }

    /**
     * Where the archive of an unpacked or packed agent class path goes (beside its {@code classes.jar});
     * empty for any other class path. Its name holds a hash of the whole class path and of the JDK:
     * one {@code classes.jar} is shared by class paths that differ after it (the tests' agents, and
     * the app JVMs the tests start, whose agents run on the app's whole class path), and a JVM given
     * an archive made for another class path or JDK cannot use it (it starts without, and says so).
     */
    static Optional<Path> location(List<Path> classPath) {
        if (classPath.isEmpty() || !classPath.get(0).getFileName().toString().equals("classes.jar")
                || !Files.exists(classPath.get(0).resolveSibling(".complete"))) {
            return Optional.empty();
        }
        String key = classPath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator))
                + "|" + AgentLauncher.javaBinary() + "|" + Runtime.version();
        return Optional.of(classPath.get(0).resolveSibling(PREFIX + AgentClassPath.shortHash(key) + ".jsa"));
    }

    /**
     * Makes the archive for this app's agent class path if it has none yet.
     *
     * @return the archive; empty when this class path cannot have one
     * @throws IOException if the training agent cannot be started, does not answer or writes no archive
     */
    public static synchronized Optional<Path> ensure() throws IOException, InterruptedException {
        Optional<Path> location = location(AgentLauncher.classPathEntries());
        if (location.isEmpty() || Files.isRegularFile(location.get())) {
            return location;
        }
        Path archive = location.get();
        Path temp = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Path dir = Files.createTempDirectory("spacebench-cds");
        try {
            List<String> command = new ArrayList<>(AgentLauncher.command());
            command.add(1, "-XX:ArchiveClassesAtExit=" + temp);
            command.addAll(List.of("--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString(),
                    "--listen", "127.0.0.1:0", "--exit-on-stdin-eof")); // follows this app if it dies meanwhile
            byte[] secret = new byte[24];
            new SecureRandom().nextBytes(secret);
            String token = HexFormat.of().formatHex(secret);
            AgentProcess agent;
            try {
                agent = AgentProcess.start(command, Map.of(AgentMain.TOKEN_ENV, token), dir, dir.resolve("agent.log"), Duration.ofMinutes(5));
            } catch (SpaceException e) {
                throw new IOException("the training agent did not start: " + e.getMessage(), e);
            }
            try (AgentChannel channel = AgentChannels.plain(agent.target(), token)) {
                for (int i = 0; i < 20; i++) {
                    channel.ping(TIMEOUT);
                }
                channel.info(TIMEOUT);
                channel.exec(ExecMetric.TRUE.argv(), TIMEOUT);
                channel.exec(ExecMetric.SH_C.argv(), TIMEOUT);
            } finally {
                agent.process().destroy(); // SIGTERM: the JVM writes the archive on its way out
                if (!agent.process().waitFor(2, TimeUnit.MINUTES)) {
                    ProcessTrees.kill(agent.process().toHandle());
                }
            }
            if (!Files.isRegularFile(temp) || Files.size(temp) == 0) {
                throw new IOException("the training agent wrote no archive" + AgentProcess.tail(dir.resolve("agent.log"), "stderr"));
            }
            Files.move(temp, archive, StandardCopyOption.ATOMIC_MOVE);
            return Optional.of(archive);
        } catch (RuntimeException e) {
            throw new IOException("the training agent failed: " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(temp);
            FileTrees.deleteQuietly(dir);
        }
    }
}
