package dev.spacebench.floor;

import dev.spacebench.agent.LocalExec;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.space.local.AgentLauncher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What starting a process costs on the host, outside any Space: the floor under every exec
 * figure. It runs the agent's own Exec code ({@link LocalExec}) in this JVM: stdin from
 * /dev/null, stdout and stderr captured through pipes, timed from just before spawn to reap.
 *
 * <p>The JVM's launch mechanism decides most of the cost and must be the agent's for the floor
 * to mean anything: the agent runs with {@code -Djdk.lang.Process.launchMechanism=VFORK} on
 * JDK 17 ({@link AgentLauncher.jvmOptions(null)}), about half the cost of JDK 17's default
 * posix_spawn through jspawnhelper. The JDK reads the property once, at the first spawn, so the
 * JVM that runs this must be started with the same option; {@link Result#matchesAgent()} says
 * whether it was.
 */
public final class HostSpawnFloor {

    public static final List<String> TRUE = List.of("true");
    public static final List<String> SH_C_TRUE = List.of("sh", "-c", "true");
    public static final String LAUNCH_MECHANISM_PROPERTY = "jdk.lang.Process.launchMechanism";
    /** What the agent reports when the property is unset (its Info call says the same). */
    public static final String JDK_DEFAULT = "JDK default";
    /** As the host's channel sends with every Exec: the agent then arms its kill timer, a cost we keep. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private HostSpawnFloor() {}

    /**
     * @param argv the command, e.g. {@link #TRUE} or {@link #SH_C_TRUE}
     * @param launchMechanism this JVM's, {@link #launchMechanism()}
     * @param agentLaunchMechanism the agent's, {@link #agentLaunchMechanism()}
     * @param samplesNs spawn-to-reap durations in ns, in the order they ran
     */
    public record Result(List<String> argv, String launchMechanism, String agentLaunchMechanism, long[] samplesNs) {
        /** Whether these samples are comparable with the agent's Exec durations. */
        public boolean matchesAgent() {
            return launchMechanism.equalsIgnoreCase(agentLaunchMechanism);
        }
    }

    /**
     * @param n measured spawns, at least 1
     * @param warmups spawns run first and dropped, at least 0
     * @throws IOException if the command cannot be started or exits with a code other than 0
     * @throws IllegalArgumentException if argv is empty, n &lt; 1 or warmups &lt; 0
     */
    public static Result run(List<String> argv, int n, int warmups) throws IOException, InterruptedException {
        ExecRequest request = ExecRequest.newBuilder().addAllArgv(argv).setTimeoutMs(TIMEOUT.toMillis()).build();
        Path workDir = Files.createTempDirectory("spacebench-spawn-floor");
        try (LocalExec exec = new LocalExec(workDir)) {
            long[] samples = Trials.run(n, warmups, () -> {
                ExecReply reply = exec.run(request);
                if (reply.getExitCode() != 0 || reply.getTimedOut()) {
                    throw new IOException(argv + " exited with " + reply.getExitCode()
                            + (reply.getTimedOut() ? " (timed out)" : "") + ": " + reply.getStderr().toStringUtf8());
                }
                return reply.getAgentDurationNs();
            });
            return new Result(argv, launchMechanism(), agentLaunchMechanism(), samples);
        } finally {
            Files.deleteIfExists(workDir);
        }
    }

    /** This JVM's launch mechanism: the property's value, or {@value #JDK_DEFAULT}. */
    public static String launchMechanism() {
        return System.getProperty(LAUNCH_MECHANISM_PROPERTY, JDK_DEFAULT);
    }

    /** The launch mechanism the agent is started with, read from its JVM options. */
    public static String agentLaunchMechanism() {
        String prefix = "-D" + LAUNCH_MECHANISM_PROPERTY + "=";
        return AgentLauncher.jvmOptions(null).stream().filter(option -> option.startsWith(prefix))
                .map(option -> option.substring(prefix.length())).findFirst().orElse(JDK_DEFAULT);
    }
}
