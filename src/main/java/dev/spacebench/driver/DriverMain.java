package dev.spacebench.driver;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.command.CommandChannel;
import dev.spacebench.channel.container.ContainerExecChannel;
import dev.spacebench.channel.ssh.SshChannel;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.channel.TokenCredentials;
import dev.spacebench.measure.AbortedException;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.ComparedLoops;
import dev.spacebench.measure.Measurement;
import dev.spacebench.measure.SpaceLostException;
import dev.spacebench.measure.SweepLoops;
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
import java.util.ArrayList;
import java.util.List;

/**
 * The measuring process (issue 28): a lean JVM of its own, started by the worker from the same
 * class path ({@link DriverProcess}), that opens the channel to one Space and runs the plan's loops
 * ({@link Measurement}, unchanged) with nothing else on its CPU path. The same process, started for
 * its task ({@link DriverJob.Task}), takes the floor before any Space exists and runs each level of a
 * concurrency sweep ({@link SweepLoops}): every timed loop of a run runs in a driver: no Spring context, no
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
        String missing = missingLibrary();
        if (missing != null) {
            // Before the job is read: the worker meets the stream's end and reports these last words, on every task's first run.
            System.err.println("driver: " + missing);
            System.exit(2);
            return;
        }
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
        System.err.println("driver " + ProcessHandle.current().pid() + ": " + switch (job.task()) {
            case LOOPS -> "measuring " + (job.target() != null ? job.target() : job.command());
            case FLOOR -> "measuring the floor on the host";
            case SWEEP_LEVEL -> "measuring concurrency level " + job.sweep().size() + " at "
                    + String.join(", ", job.sweep().stream().map(DriverJob.Target::target).toList());
        });
        DriverControl control = DriverControl.start(in);
        SampleFrames.Writer writer = new SampleFrames.Writer(frames);
        int code = 0;
        EventLoopGroup loop = null;
        List<Channel> channels = new ArrayList<>();
        try {
            if (onUnixSocket(job)) {
                loop = new EpollEventLoopGroup(1);
            }
            FrameListener listener = new FrameListener(writer, control);
            Task task = switch (job.task()) {
                // A command target's Space has no agent (no target): its channels are all others.
                case LOOPS -> loops(job, job.target() == null ? null : open(job.target(), job.token(), job.bulkDir(), job.chunkBytes(), loop, channels),
                        listener, loop, channels);
                case FLOOR -> () -> DriverResult.ofFloor(Measurement.floor(job.plan(), job.staging(), listener));
                case SWEEP_LEVEL -> {
                    List<AgentChannel> level = new ArrayList<>();
                    for (DriverJob.Target space : job.sweep()) {
                        level.add(open(space.target(), space.token(), space.bulkDir(), job.chunkBytes(), loop, channels));
                    }
                    SweepLoops sweep = new SweepLoops(level, job.staging(), job.plan(), listener);
                    yield () -> {
                        sweep.run();
                        return new DriverResult(null, null, List.of(), List.of(), 0);
                    };
                }
            };
            try {
                DriverResult result = task.run();
                listener.flush();
                writer.result(result);
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
            // The pipe to the worker broke, or a channel could not be opened before any frame:
            // the worker reads a stream without its end and reports this stderr.
            System.err.println("driver: " + e);
            code = 1;
        } finally {
            for (Channel channel : channels) {
                try {
                    channel.close();
                } catch (RuntimeException e) {
                    System.err.println("driver: closing a channel: " + e);
                }
            }
            if (loop != null) {
                loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
        System.exit(code);
    }

    /**
     * A class of each library the driver's code needs beyond the agent's class path (its class path
     * adds them from the packaged jar: {@link DriverProcess#DRIVER_LIBRARIES}), with the library's
     * name. Checked at every start, whatever the task: a library missing from the jar's driver class
     * path once failed only the runs whose path reached it (every default run, whose interleaved
     * floor reads hyperfine's JSON), with a NoClassDefFoundError mid-run.
     */
    static final java.util.Map<String, String> REQUIRED_CLASSES = java.util.Map.of(
            "tools.jackson.databind.json.JsonMapper", "jackson-databind (the floor reads hyperfine's JSON)",
            "tools.jackson.core.JacksonException", "jackson-core",
            "com.fasterxml.jackson.annotation.JsonProperty", "jackson-annotations",
            "org.apache.sshd.client.SshClient", "sshd-core (the ssh channel)",
            "org.apache.sshd.common.config.keys.PublicKeyEntry", "sshd-common (the job's SSH host key)",
            "org.slf4j.LoggerFactory", "slf4j-api (MINA SSHD logs through it)");

    /** @return null when every {@link #REQUIRED_CLASSES} loads; else which library is missing, in words */
    static String missingLibrary() {
        for (var required : new java.util.TreeMap<>(REQUIRED_CLASSES).entrySet()) {
            try {
                Class.forName(required.getKey(), false, DriverMain.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // Not the class path itself: the worker keeps only the tail of these words.
                return "its class path lacks " + required.getValue() + ": " + required.getKey() + " does not load (" + e + ")";
            }
        }
        return null;
    }

    /** What a job runs once its channels are open. */
    private interface Task {
        DriverResult run();
    }

    /** Whether any agent the job reaches listens on a unix socket (its channels then share one epoll event loop). */
    private static boolean onUnixSocket(DriverJob job) {
        return (job.target() != null && job.target().startsWith("unix:"))
                || job.sweep().stream().anyMatch(space -> space.target().startsWith("unix:"))
                || job.entries().stream().anyMatch(entry -> entry.target().startsWith("unix:"));
    }

    /**
     * A {@link DriverJob.Task#LOOPS} job: the plan's loops through each of its channels, the agent's through {@code channel}
     * (null: the Space has no agent, a command target's).
     */
    private static Task loops(DriverJob job, AgentChannel channel, FrameListener listener, EventLoopGroup loop, List<Channel> opened) {
        // A Space reached through a unix socket has its interleaved floor ping on one too, in the staging directory.
        Measurement measurement = channel == null ? null : new Measurement(channel, job.staging(), listener)
                .floorSocketDir(job.target().startsWith("unix:") ? job.staging() : null);
        return () -> {
            Measurement reported = measurement;
            if (job.entries().isEmpty()) {
                reported = runChannels(job, measurement, listener);
            } else {
                compare(job, channel, measurement, listener, loop, opened);
            }
            return new DriverResult(reported.agentGcInLoops(), reported.hostGcInLoops(), reported.agentJitSettleBlocks(),
                    reported.agentExecJitSettleBlocks(), reported.fileWarmupTransfers());
        };
    }

    /**
     * Each of the job's channels' loops on its Space, in order: the agent's through {@code agent}
     * (its ids unchanged), any other through a connection opened (and authenticated) before its loops.
     * Without an agent (a command target's Space) an interleaved floor's blocks run among the first
     * channel's instead.
     *
     * @param agent the agent's loops; null when the Space has no agent
     * @return the Measurement whose JVM counts the driver reports: the agent's, else the last channel's
     */
    private static Measurement runChannels(DriverJob job, Measurement agent, FrameListener listener) {
        Plan plan = job.plan();
        long done = Measurement.unitsBeforeLoops(plan);
        long total = Measurement.progressUnits(plan, job.channels().size());
        // An interleaved run's seq goes on from one channel's samples to the next's.
        long seq = 0;
        Measurement reported = agent;
        for (String via : job.channels()) {
            if (via.equals(SpaceChannels.AGENT)) {
                if (agent == null) {
                    throw new IllegalStateException("the Space has no agent, so the agent channel cannot be measured");
                }
                done = agent.seqAfter(seq).run(plan, done, total);
                seq = agent.lastSeq();
            } else {
                try (Channel other = openOther(via, job)) {
                    Measurement measurement = new Measurement(other, job.staging(), listener).seqAfter(seq)
                            .floorBlocks(agent == null && via.equals(job.channels().get(0)));
                    done = measurement.run(plan, done, total);
                    seq = measurement.lastSeq();
                    reported = agent != null ? agent : measurement;
                }
            }
        }
        return reported;
    }

    /**
     * A comparison run's loops (issue 29): each entry's channels as parts of one interleaved
     * schedule ({@link ComparedLoops}); entry 1's agent is {@code first}, the others are opened here
     * (and added to {@code opened}, which the caller closes).
     */
    private static void compare(DriverJob job, AgentChannel firstChannel, Measurement first, FrameListener listener, EventLoopGroup loop,
                                List<Channel> opened) {
        Plan plan = job.plan();
        List<Measurement> parts = new ArrayList<>();
        int channels = 0;
        for (int e = 0; e < job.entries().size(); e++) {
            DriverJob.Entry entry = job.entries().get(e);
            AgentChannel agent = firstChannel;
            if (e > 0) {
                agent = open(entry.target(), entry.token(), entry.bulkDir(), job.chunkBytes(), loop, opened);
            }
            for (String via : entry.channels()) {
                channels++;
                if (e == 0 && via.equals(SpaceChannels.AGENT)) {
                    parts.add(first);
                    continue;
                }
                Channel measured = agent;
                if (!via.equals(SpaceChannels.AGENT)) {
                    measured = openOther(via, entry.ssh(), null, null);
                    opened.add(measured);
                }
                parts.add(new Measurement(measured, job.staging(), listener).inEntry(e + 1));
            }
        }
        ComparedLoops.run(parts, plan, Measurement.unitsBeforeLoops(plan), Measurement.progressUnits(plan, channels));
    }

    /** @throws IllegalStateException when the Space serves no such channel, or it cannot be reached (the reason in words) */
    private static Channel openOther(String id, DriverJob job) {
        return openOther(id, job.ssh(), job.containerExec(), job.command());
    }

    /**
     * @param containerExec null for a comparison's entries (a container-exec channel is not measured in a comparison yet)
     * @param command null for a comparison's entries (a command target is no comparison's entry: the request's validation refuses it)
     */
    private static Channel openOther(String id, dev.spacebench.space.SshAccess ssh, dev.spacebench.space.ContainerExecAccess containerExec,
                                     dev.spacebench.channel.command.CommandAccess command) {
        if (id.equals(SpaceChannels.SSH)) {
            if (ssh == null) {
                throw new IllegalStateException("the Space serves no SSH server, so the ssh channel cannot be measured");
            }
            return SshChannel.open(ssh, OPEN_TIMEOUT);
        }
        if (id.equals(SpaceChannels.CONTAINER_EXEC)) {
            if (containerExec == null) {
                throw new IllegalStateException("the Space is no container, so the container-exec channel cannot be measured");
            }
            return ContainerExecChannel.open(containerExec);
        }
        if (id.equals(SpaceChannels.COMMAND)) {
            if (command == null) {
                throw new IllegalStateException("the Space is no command target's, so the command channel cannot be measured");
            }
            return new CommandChannel(command);
        }
        throw new IllegalStateException("no channel '" + id + "'; known: " + SpaceChannels.KNOWN);
    }

    /** The channel as the app's {@code AgentChannels} builds it (lean, plaintext, the token on every call), added to {@code opened}. */
    static AgentChannel open(String target, String token, java.nio.file.Path bulkDir, int chunkBytes, EventLoopGroup loop,
                             List<? super AgentChannel> opened) {
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
        AgentChannel channel = new AgentChannel(managed, ClientInterceptors.intercept(managed, new TokenCredentials(token)), bulkDir,
                chunkBytes);
        opened.add(channel);
        return channel;
    }
}
