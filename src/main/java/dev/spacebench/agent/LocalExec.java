package dev.spacebench.agent;

import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The agent's Exec, run in this JVM outside any Space and without gRPC. The host spawn floor
 * uses it so that it starts processes exactly as the agent does (the same {@link CommandRunner}:
 * stdin from /dev/null, stdout and stderr through pipes, the same start and stop of the clock);
 * a floor that spawned some other way would not be the floor of the agent's figure.
 */
public final class LocalExec implements AutoCloseable {

    private final ExecutorService ioPool = Executors.newCachedThreadPool(AgentServer.daemon("local-exec-io"));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(AgentServer.daemon("local-exec-timer"));
    private final CommandRunner runner;

    /**
     * @param workDir an existing directory; commands run in it
     * @throws IOException if it does not exist
     */
    public LocalExec(Path workDir) throws IOException {
        this.runner = new CommandRunner(new WorkDir(workDir), ioPool, timer);
    }

    /**
     * As the agent's Exec call: {@code agent_duration_ns} spans spawn to reap.
     *
     * @throws IOException if the program cannot be started
     * @throws IllegalArgumentException for an empty argv or a timeout that is negative or over 24 hours
     */
    public ExecReply run(ExecRequest request) throws IOException, InterruptedException {
        return runner.run(request);
    }

    /** How this runs commands, as the agent's Info says it of its own: e.g. "posix_spawn+pidfd (native)" or "VFORK". */
    public String launchMechanism() {
        return runner.launchMechanism();
    }

    /**
     * How an agent on this host started with these JVM options runs commands.
     *
     * @param launchValue its {@code spacebench.agent.exec} (null: auto)
     * @param jdkMechanism its {@code jdk.lang.Process.launchMechanism} (null: "JDK default")
     */
    public static String launchMechanismOf(String launchValue, String jdkMechanism) {
        return CommandRunner.launchMechanismFor(launchValue == null ? "auto" : launchValue,
                jdkMechanism == null ? "JDK default" : jdkMechanism);
    }

    @Override
    public void close() {
        ioPool.shutdownNow();
        timer.shutdownNow();
    }
}
