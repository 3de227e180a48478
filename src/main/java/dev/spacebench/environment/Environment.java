package dev.spacebench.environment;

import dev.spacebench.space.SpaceFacts;
import java.util.Map;

/**
 * What a run ran on, as published.
 *
 * @param host the machine that ran the app and the worker
 * @param guest the Space as its agent saw itself (null when the agent never answered)
 * @param space facts from the Space's provider (isolation, network, enforced shape, pid…) in
 *     their stored form, {@link SpaceFacts#toMap()}
 * @param agentVersion the agent's own version
 * @param otherSpacesRunning other Spaces this app had running when the run's Space was created
 * @param worker the worker that claimed the run
 * @param floor how the floor was measured (launch mechanism, hyperfine, warm-ups); null in older runs
 * @param hostGcInLoops the garbage collections of the JVM that times the round trips (the run's driver process) while the loops
 *     ran, summed over the loops; null in older runs and when no loop ran
 */
public record Environment(
        SystemFacts host,
        SystemFacts guest,
        Map<String, String> space,
        String agentVersion,
        int otherSpacesRunning,
        String worker,
        Map<String, String> floor,
        JvmGc hostGcInLoops) {

    /** The Space's facts, typed; {@link #space()} is their stored form. */
    public SpaceFacts spaceFacts() {
        return space == null ? null : SpaceFacts.fromMap(space);
    }
}
