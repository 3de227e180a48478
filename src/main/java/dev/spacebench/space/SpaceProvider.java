package dev.spacebench.space;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Makes and removes Spaces of one kind. Implementations are Spring beans; {@link Spaces} finds
 * them by {@link #kind()}.
 */
public interface SpaceProvider {

    /** The kind's name in requests and on pages, e.g. {@code "process"}. */
    String kind();

    /**
     * Whether what this kind needs is here (programs, files, configuration), and if not, why not.
     * Cheap, and not proof that a Space can be made: {@link KindChecks} makes one to know that.
     */
    Availability availability();

    /**
     * False for a kind that reaches an agent already running instead of creating a Space
     * ({@link SpaceKinds#reachesRunningAgent}): it takes target, token and bulkDir and no shape.
     */
    default boolean createsSpaces() {
        return !SpaceKinds.reachesRunningAgent(kind());
    }

    /** Whether this host reaches the kind's agents over a unix socket (which needs Netty's native epoll transport). */
    default boolean agentOnUnixSocket() {
        return false;
    }

    /**
     * Creates a Space and waits until its agent says it is ready.
     *
     * @param spec kind and shape
     * @param readyTimeout how long to wait for the agent's readiness line
     * @throws SpaceException if the Space cannot be made or its agent is not ready in time; nothing
     *     is left behind in that case
     */
    Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException;

    /**
     * As {@link #create(SpaceSpec, Duration)}, with the Space's directory under {@code root}
     * instead of the configured spaces root (the kind checks keep theirs apart from runs').
     * Kinds that make no directory ignore {@code root}.
     */
    default Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(spec, readyTimeout);
    }

    /**
     * As {@link #create(Path, SpaceSpec, Duration)}, serving {@code channels} besides the agent
     * ({@link SpaceChannels}): a kind that cannot serve one refuses in {@link #channelsUnsupported}
     * first. By default none beyond the agent.
     *
     * @param root where the Space's directory goes; null: the configured Spaces root
     * @throws SpaceException also when a channel's server does not come up; nothing is left behind
     */
    default Space create(Path root, SpaceSpec spec, Duration readyTimeout, java.util.Set<String> channels) throws SpaceException {
        java.util.Optional<String> cannot = channelsUnsupported(channels);
        if (cannot.isPresent()) {
            throw new SpaceException(cannot.get());
        }
        return root == null ? create(spec, readyTimeout) : create(root, spec, readyTimeout);
    }

    /**
     * Why this kind cannot serve {@code channels} (ids of {@link SpaceChannels}), naming those it
     * can; empty when it can serve them all. By default only the agent.
     */
    default java.util.Optional<String> channelsUnsupported(java.util.Set<String> channels) {
        java.util.List<String> cannot = channels.stream().filter(c -> !c.equals(SpaceChannels.AGENT)).sorted().toList();
        return cannot.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of("the " + kind() + " kind cannot serve " + cannot + "; it serves [" + SpaceChannels.AGENT + "]");
    }

    /**
     * What is wrong with a spec that can be seen before anything is created, so that a request is
     * refused at once instead of failing when the worker gets to it.
     *
     * @return field (e.g. {@code space.target}) → what is wrong and what is allowed; empty when fine
     */
    default Map<String, String> check(SpaceSpec spec) {
        return Map.of();
    }

    /**
     * Checks, once the kind's own check made and reached its smallest Space, the options that Space
     * did not use (the container kind's runtimes other than the default), so that a run asking for
     * one is refused at once where it cannot run. Runs on the kind's check thread. Nothing by default.
     */
    default void checkOptions() {
    }

    /**
     * The OCI runtimes a Space of this kind may ask for ({@code space.runtime}), each with what its
     * last check found; empty for a kind with no choice of runtime.
     */
    default Map<String, Availability> runtimes() {
        return Map.of();
    }

    /**
     * Removes the Space: kills every process in it and removes its files. Idempotent; never
     * throws for a Space already gone.
     */
    void delete(Space space);

    /**
     * @param available true when what {@link #create} needs is here
     * @param reason why not, naming what is missing; empty when available
     * @param fix what to do about it (a package, a setting); empty when available or unknown
     */
    record Availability(boolean available, String reason, String fix) {
        public static Availability yes() {
            return new Availability(true, "", "");
        }

        public static Availability no(String reason, String fix) {
            return new Availability(false, reason, fix);
        }
    }
}
