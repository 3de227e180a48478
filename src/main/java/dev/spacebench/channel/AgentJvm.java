package dev.spacebench.channel;

import java.time.Duration;

/**
 * The Spacebench agent's JVM at the far end of a channel: what the loops ask it outside every timed
 * region (its JIT and GC counters), which a channel that ends in no agent of ours cannot answer.
 */
public interface AgentJvm {

    /** The Space's own environment, the agent's counters included. */
    AgentInfo info(Duration timeout);

    /** Has the agent JVM run a full garbage collection, then reports as {@link #info(Duration)}. */
    AgentInfo collectGarbage(Duration timeout);
}
