package dev.spacebench.floor;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.space.FileTrees;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.local.AgentArchive;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.ProcessTrees;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bare floors' server ({@link BareServerMain}) in a process of its own, and this JVM's client
 * channel to it: a bare ping or stream then pays what a Space's no-op or transfer pays between two
 * JVMs, and its server gets a JIT, GC and safepoints of its own, as a Space's agent does (a server
 * in the client's JVM had its p50 above a process Space's no-op).
 *
 * <p>Started the way a process Space's agent is ({@link AgentLauncher#command()}: the same java,
 * JVM options and class path, and the agent's class-data archive, made first if missing, as a run
 * does), with {@link BareServerMain} in place of the agent's main class; waited for by its readiness
 * line ({@link AgentProcess}), before anything is timed. Cleanup, as the agent's: {@link #close}
 * kills its process tree ({@link ProcessTrees}) and removes its unix socket and log directory; if
 * this JVM dies without closing it, even by SIGKILL, its stdin pipe closes and it exits on its own.
 */
final class BareServerProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration INFO_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final Path dir;
    private final Path socket;
    private final ManagedChannel channel;
    private final EventLoopGroup loop;

    private BareServerProcess(Process process, Path dir, Path socket, ManagedChannel channel, EventLoopGroup loop) {
        this.process = process;
        this.dir = dir;
        this.socket = socket;
        this.channel = channel;
        this.loop = loop;
    }

    /**
     * @param unixSocket null: TCP loopback (127.0.0.1, a free port); otherwise a unix socket bound
     *     at this path, removed by {@link #close}
     * @param payloadBytes what ReadFile streams, in bytes (0: nothing)
     * @param seed the payload's seed ({@link BareServerMain#bytes})
     * @param hash true: the server hashes what it receives and sends (SHA-256), as the agent does
     * @throws IOException if the server process cannot start or is not ready within 2 minutes (its
     *     stderr's last lines in the message); nothing is left running then
     * @throws IllegalStateException if a unix socket is asked for and epoll is unavailable here
     */
    static BareServerProcess start(Path unixSocket, int payloadBytes, long seed, boolean hash) throws IOException, InterruptedException {
        try {
            AgentArchive.ensure();
        } catch (IOException e) {
            // As for a run's agents: without the archive it only starts slower, outside every timed region.
        }
        List<String> command = new ArrayList<>(AgentLauncher.command());
        int main = command.lastIndexOf(AgentLauncher.AGENT_MAIN);
        if (main != command.size() - 1) {
            throw new IllegalStateException("the agent's command does not end with its main class: " + command);
        }
        command.set(main, BareServerMain.class.getName());
        command.add(unixSocket == null ? "tcp" : "unix:" + unixSocket.toAbsolutePath());
        if (payloadBytes > 0) {
            command.addAll(List.of("--payload", Integer.toString(payloadBytes), Long.toString(seed)));
        }
        if (hash) {
            command.add("--hash");
        }
        Path dir = Files.createTempDirectory("spacebench-floor-server");
        AgentProcess started;
        try {
            started = AgentProcess.start(command, dir, dir.resolve("server.log"), READY_TIMEOUT);
        } catch (SpaceException e) {
            removeFiles(dir, unixSocket); // it may have bound its socket before it failed
            throw new IOException("the floor's server process did not start: " + e.getMessage(), e);
        }
        EventLoopGroup loop = null;
        try {
            ManagedChannel channel;
            if (unixSocket == null) {
                String target = started.target();
                channel = BareGrpcServer.tcpChannel(Integer.parseInt(target.substring(target.lastIndexOf(':') + 1)));
            } else {
                loop = new EpollEventLoopGroup(1);
                channel = BareGrpcServer.unixChannel(unixSocket, loop);
            }
            return new BareServerProcess(started.process(), dir, unixSocket, channel, loop);
        } catch (RuntimeException | Error e) {
            new BareServerProcess(started.process(), dir, unixSocket, null, loop).close();
            throw e;
        }
    }

    /** The server process's pid. */
    long pid() {
        return process.pid();
    }

    AgentGrpc.AgentBlockingStub blocking() {
        return AgentGrpc.newBlockingStub(channel);
    }

    AgentGrpc.AgentStub async() {
        return AgentGrpc.newStub(channel);
    }

    /**
     * The server JVM's JIT time so far, in ns (its CompilationMXBean, ms resolution; 0 when it
     * cannot tell), through one untimed Info call.
     *
     * @throws io.grpc.StatusRuntimeException if the call fails
     */
    long jitNs() {
        return blocking().withDeadlineAfter(INFO_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).info(InfoRequest.getDefaultInstance())
                .getJitTimeNs();
    }

    /**
     * Closes the channel (if one was made), kills the server's process tree and waits for it,
     * removes its socket and directory.
     */
    @Override
    public void close() throws IOException {
        try {
            if (channel != null) {
                channel.shutdownNow();
                channel.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ProcessTrees.kill(process.toHandle());
            try {
                process.waitFor(5, TimeUnit.SECONDS); // reaped: no zombie of ours left behind
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (loop != null) {
                loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
            removeFiles(dir, socket);
        }
    }

    private static void removeFiles(Path dir, Path socket) throws IOException {
        FileTrees.deleteQuietly(dir);
        if (socket != null) {
            Files.deleteIfExists(socket);
        }
    }
}
