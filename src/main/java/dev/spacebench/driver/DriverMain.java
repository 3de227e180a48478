package dev.spacebench.driver;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.container.ContainerExecChannel;
import dev.spacebench.channel.ssh.SshChannel;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.channel.TokenCredentials;
import dev.spacebench.measure.AbortedException;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.Measurement;
import dev.spacebench.measure.SpaceLostException;
import dev.spacebench.protocol.NettyJfrEvents;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The measuring process (issue 28): a lean JVM of its own, started by the worker from the same
 * class path ({@link DriverProcess}), that opens the channel to one Space and runs the plan's loops
 * ({@link Measurement}, unchanged) with nothing else on its CPU path: no Spring context, no
 * database, no web server, no logging framework. The worker stores what it sends and serves the
 * dashboard in its own JVM.
 *
 * <ul>
 *   <li>stdin: the job ({@link DriverJob}: target, token, plan), then single-byte commands
 *       ({@link DriverJob#CANCEL}, {@link DriverJob#GO}). Its end means the worker died (or was
 *       killed, even by SIGKILL): the driver then halts at once, mid-loop or not.</li>
 *   <li>stdout: {@link SampleFrames}, nothing else (System.out is pointed at stderr, so that no
 *       library's print can break a frame).</li>
 *   <li>stderr: its last words, for the run's reason if it dies.</li>
 * </ul>
 *
 * Exit codes: 0 after its end frame (whatever the outcome it reports), 2 when stdin holds no valid
 * job, {@value #PARENT_GONE} when its stdin closed before the end.
 */
public final class DriverMain {

    /** Exit code when the worker went away (stdin closed) before the driver's end. */
    static final int PARENT_GONE = 3;
    /** How long a channel other than the agent may take to connect and authenticate. */
    private static final java.time.Duration OPEN_TIMEOUT = java.time.Duration.ofSeconds(30);

    private DriverMain() {}

    public static void main(String[] args) {
        NettyJfrEvents.turnOff(); // as the agent and the app: the first connection otherwise starts JFR
        OutputStream frames = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
        DriverJob job;
        try {
            job = DriverJob.read(in);
        } catch (IOException e) {
            System.err.println("driver: no job on stdin: " + e.getMessage());
            System.exit(2);
            return;
        }
        // Its first words, so that a driver killed before it says anything else still names itself in the run's reason.
        System.err.println("driver " + ProcessHandle.current().pid() + ": measuring " + job.target());
        DriverControl control = DriverControl.start(in);
        SampleFrames.Writer writer = new SampleFrames.Writer(frames);
        int code = 0;
        EventLoopGroup loop = null;
        AgentChannel channel = null;
        try {
            if (job.target().startsWith("unix:")) {
                loop = new EpollEventLoopGroup(1);
            }
            channel = open(job, loop);
            FrameListener listener = new FrameListener(writer, control);
            // A Space reached through a unix socket has its interleaved floor ping on one too, in the staging directory.
            Measurement measurement = new Measurement(channel, job.staging(), listener)
                    .floorSocketDir(job.target().startsWith("unix:") ? job.staging() : null);
            try {
                runChannels(job, measurement, listener);
                listener.flush();
                writer.result(new DriverResult(measurement.agentGcInLoops(), measurement.hostGcInLoops(),
                        measurement.agentJitSettleBlocks(), measurement.agentExecJitSettleBlocks(), measurement.fileWarmupTransfers()));
                writer.end(SampleFrames.Outcome.DONE, null);
            } catch (CancelledException e) {
                listener.flush();
                writer.end(SampleFrames.Outcome.CANCELLED, e.getMessage());
            } catch (SpaceLostException e) {
                listener.flush();
                writer.end(SampleFrames.Outcome.SPACE_LOST, e.getMessage());
            } catch (AbortedException e) {
                listener.flush();
                writer.end(SampleFrames.Outcome.ABORTED, e.getMessage());
            } catch (RuntimeException | Error e) {
                e.printStackTrace();
                listener.flush();
                writer.end(SampleFrames.Outcome.FAILED, e.getMessage() == null ? e.toString() : e.getMessage());
            }
        } catch (IOException | RuntimeException | Error e) {
            // The pipe to the worker broke, or the channel could not be opened before any frame:
            // the worker reads a stream without its end and reports this stderr.
            System.err.println("driver: " + e);
            code = 1;
        } finally {
            if (channel != null) {
                channel.close();
            }
            if (loop != null) {
                loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
        System.exit(code);
    }

    /**
     * Each of the job's channels' loops on its Space, in order: the agent's through {@code agent}
     * (its ids unchanged), any other through a connection opened (and authenticated) before its loops.
     */
    private static void runChannels(DriverJob job, Measurement agent, FrameListener listener) {
        Plan plan = job.plan();
        long done = Measurement.unitsBeforeLoops(plan);
        long total = Measurement.progressUnits(plan, job.channels().size());
        // An interleaved run's seq goes on from one channel's samples to the next's.
        long seq = 0;
        for (String via : job.channels()) {
            if (via.equals(SpaceChannels.AGENT)) {
                done = agent.seqAfter(seq).run(plan, done, total);
                seq = agent.lastSeq();
            } else {
                try (Channel other = openOther(via, job)) {
                    Measurement measurement = new Measurement(other, job.staging(), listener).seqAfter(seq);
                    done = measurement.run(plan, done, total);
                    seq = measurement.lastSeq();
                }
            }
        }
    }

    /** @throws IllegalStateException when the Space serves no such channel, or it cannot be reached (the reason in words) */
    private static Channel openOther(String id, DriverJob job) {
        if (id.equals(SpaceChannels.SSH)) {
            if (job.ssh() == null) {
                throw new IllegalStateException("the Space serves no SSH server, so the ssh channel cannot be measured");
            }
            return SshChannel.open(job.ssh(), OPEN_TIMEOUT);
        }
        if (id.equals(SpaceChannels.CONTAINER_EXEC)) {
            if (job.containerExec() == null) {
                throw new IllegalStateException("the Space is no container, so the container-exec channel cannot be measured");
            }
            return ContainerExecChannel.open(job.containerExec());
        }
        throw new IllegalStateException("no channel '" + id + "'; known: " + SpaceChannels.KNOWN);
    }

    /** The channel as the app's {@code AgentChannels} builds it (lean, plaintext, the token on every call). */
    static AgentChannel open(DriverJob job, EventLoopGroup loop) {
        String target = job.target();
        ManagedChannel managed;
        if (target.startsWith("unix:")) {
            managed = AgentChannels.unix(target.substring("unix:".length()), loop);
        } else {
            int colon = target.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("the job's target must be HOST:PORT or unix:/PATH, was '" + target + "'");
            }
            managed = AgentChannels.lean(NettyChannelBuilder.forAddress(target.substring(0, colon),
                    Integer.parseInt(target.substring(colon + 1)))).usePlaintext().build();
        }
        return new AgentChannel(managed, ClientInterceptors.intercept(managed, new TokenCredentials(job.token())), job.bulkDir(),
                job.chunkBytes());
    }
}
