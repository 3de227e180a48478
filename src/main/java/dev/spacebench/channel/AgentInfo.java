package dev.spacebench.channel;

import java.util.List;

/**
 * What an agent reports about itself and the Space it runs in (the protocol's Info call), so that
 * no caller above the channel handles the generated protocol classes. Grouped as a reader asks:
 * what system the agent sees, which process it is, where it writes, what its JVM has spent so far.
 */
public record AgentInfo(SystemSeen system, AgentProcess process, Dirs dirs, JvmCounters counters) {

    /**
     * The Space's system as the agent sees it.
     *
     * @param cpuCount CPUs the agent's JVM sees
     * @param memoryBytes memory the Space reports, in bytes
     */
    public record SystemSeen(String os, String kernel, String arch, String cpuModel, int cpuCount, long memoryBytes,
                             String hostname) {
    }

    /**
     * The agent's own process.
     *
     * @param agentVersion the agent's Spacebench version
     * @param launchMechanism how the agent's JVM spawns processes (jdk.lang.Process.launchMechanism)
     * @param pid the agent's process id in its own namespace
     * @param jvmFlags the agent JVM's input arguments, secrets read "(hidden)"
     * @param startToListenNs the agent's process start (its JVM's boot included) to its server listening, in ns (10 ms
     *     resolution; an agent without /proc: from its JVM's start time, ms resolution); 0 when unknown
     */
    public record AgentProcess(String agentVersion, String jvm, String launchMechanism, long pid, List<String> jvmFlags,
                               long startToListenNs) {
        public AgentProcess {
            jvmFlags = List.copyOf(jvmFlags);
        }
    }

    /**
     * Where the agent writes.
     *
     * @param workDir the agent's work directory, as the agent sees it
     * @param bulkDir the agent's bulk directory as the agent sees it; empty without a bulk lane
     * @param bulkDirId the id the agent wrote into its bulk directory; empty when it could not
     */
    public record Dirs(String workDir, String bulkDir, String bulkDirId) {
    }

    /**
     * The agent JVM's running totals.
     *
     * @param gcCount the agent JVM's garbage collections so far (all collectors)
     * @param gcTimeNs their total time in ns (ms resolution)
     * @param allocatedBytes heap bytes the agent's threads allocated so far, a thread that ended counted as last seen (never
     *     decreases); 0 when unknown
     * @param jitTimeNs the agent JVM's JIT compilers' accumulated time so far, in ns (ms resolution); 0 when unknown
     */
    public record JvmCounters(long gcCount, long gcTimeNs, long allocatedBytes, long jitTimeNs) {
    }
}
