package dev.spacebench.channel;

import java.util.List;

/**
 * What an agent reports about itself and the Space it runs in (the protocol's Info call), so that
 * no caller above the channel handles the generated protocol classes.
 *
 * @param cpuCount CPUs the agent's JVM sees
 * @param memoryBytes memory the Space reports, in bytes
 * @param agentVersion the agent's Spacebench version
 * @param workDir the agent's work directory, as the agent sees it
 * @param bulkDir the agent's bulk directory as the agent sees it; empty without a bulk lane
 * @param launchMechanism how the agent's JVM spawns processes (jdk.lang.Process.launchMechanism)
 * @param pid the agent's process id in its own namespace
 * @param jvmFlags the agent JVM's input arguments, secrets read "(hidden)"
 * @param bulkDirId the id the agent wrote into its bulk directory; empty when it could not
 * @param startToListenNs the agent's process start (its JVM's boot included) to its server listening, in ns (10 ms
 *     resolution; an agent without /proc: from its JVM's start time, ms resolution); 0 when unknown
 * @param gcCount the agent JVM's garbage collections so far (all collectors)
 * @param gcTimeNs their total time in ns (ms resolution)
 * @param allocatedBytes heap bytes the agent's threads allocated so far, a thread that ended counted as last seen (never
 *     decreases); 0 when unknown
 * @param jitTimeNs the agent JVM's JIT compilers' accumulated time so far, in ns (ms resolution); 0 when unknown
 */
public record AgentInfo(String os, String kernel, String arch, String cpuModel, int cpuCount, long memoryBytes,
                        String hostname, String agentVersion, String jvm, String workDir, String bulkDir,
                        String launchMechanism, long pid, List<String> jvmFlags, String bulkDirId,
                        long startToListenNs, long gcCount, long gcTimeNs, long allocatedBytes,
                        long jitTimeNs) {

    public AgentInfo {
        jvmFlags = List.copyOf(jvmFlags);
    }
}
