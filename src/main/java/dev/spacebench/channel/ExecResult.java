package dev.spacebench.channel;

/**
 * What a command returned.
 *
 * @param exitCode the process's exit code
 * @param agentDurationNs spawn to reap, measured by the agent, in ns
 * @param stdout captured standard output (capped by the agent at 1 MiB)
 * @param stderr captured standard error (capped likewise)
 * @param timedOut whether the agent killed it at its timeout
 */
public record ExecResult(int exitCode, long agentDurationNs, byte[] stdout, byte[] stderr, boolean timedOut) {
}
