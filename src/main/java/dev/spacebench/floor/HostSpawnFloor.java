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
 * <p>How the process is spawned decides most of the cost and must be the agent's for the floor to
 * mean anything. Both use {@link LocalExec}'s choice: glibc's posix_spawn with a pidfd (native)
 * where this host allows it, else the JDK's ProcessBuilder with the JVM's launch mechanism (the
 * agent runs with {@code -Djdk.lang.Process.launchMechanism=VFORK} on JDK 17, {@link
 * AgentLauncher#jvmOptions(String)}). {@link Result#matchesAgent()} says whether this JVM's choice
 * is the one an agent started on this host makes.
 */
public final class HostSpawnFloor {

    public static final List<String> TRUE = List.of("true");
    public static final List<String> SH_C_TRUE = List.of("sh", "-c", "true");
    public static final String LAUNCH_MECHANISM_PROPERTY = "jdk.lang.Process.launchMechanism";
    /** As the host's channel sends with every Exec: the agent then arms its kill timer, a cost we keep. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private HostSpawnFloor() {}

    /**
     * @param argv the command, e.g. {@link #TRUE} or {@link #SH_C_TRUE}
     * @param launchMechanism how these samples were spawned ({@link LocalExec#launchMechanism()})
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
            return new Result(argv, exec.launchMechanism(), agentLaunchMechanism(), samples);
        } finally {
            Files.deleteIfExists(workDir);
        }
    }

    /** How an agent started on this host spawns, from its JVM options ({@link LocalExec#launchMechanismOf}). */
    public static String agentLaunchMechanism() {
        List<String> options = AgentLauncher.jvmOptions(null);
        return LocalExec.launchMechanismOf(option(options, "spacebench.agent.exec"), option(options, LAUNCH_MECHANISM_PROPERTY));
    }

    private static String option(List<String> options, String property) {
        String prefix = "-D" + property + "=";
        return options.stream().filter(option -> option.startsWith(prefix)).map(option -> option.substring(prefix.length()))
                .findFirst().orElse(null);
    }
}
