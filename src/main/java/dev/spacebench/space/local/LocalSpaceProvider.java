package dev.spacebench.space.local;

import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.limits.HostShape;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The create / teardown / delete every kind that starts its own agent on this host shares
 * (process, sandbox, container, vm): a fresh {@link SpaceDir} under the Spaces root, the kind's
 * {@link #launch}, and one {@link Teardown} per Space that delete runs, and that a create failing
 * half way runs at once, so nothing is left behind either way.
 */
public abstract class LocalSpaceProvider implements SpaceProvider {

    private final Path root;
    private final Map<String, Teardown> live = new ConcurrentHashMap<>();

    /** @param root the configured Spaces root ({@code spacebench.spaces.root}) */
    protected LocalSpaceProvider(Path root) {
        this.root = root;
    }

    /**
     * Starts the agent in {@code dir} and waits until it is ready. Registers with {@code launch}
     * each thing it makes as soon as it exists, so that a failure later in the launch removes it.
     *
     * @return how to reach the agent, and what the page shows about the Space
     * @throws IOException or SpaceException if the Space cannot be made; the base class then tears
     *     down what {@code launch} holds
     */
    protected abstract Launched launch(SpaceDir dir, SpaceSpec spec, Duration readyTimeout, Launch launch)
            throws IOException, SpaceException;

    /**
     * What delete does beyond removing the directory for a Space this provider no longer tracks
     * (made by another instance, or deleted already). Nothing by default.
     */
    protected void forgotten(Space space) {
    }

    /**
     * Removes what a dead app left of a Space of this kind outside its directory (e.g. a
     * container, whose processes are the engine's; a process Space's processes that left the
     * agent's tree). Nothing by default: the caller kills the processes naming the directory and
     * removes it.
     *
     * @param id the leftover Space's id (its directory's name)
     * @return how many processes it killed
     */
    public int removeLeftover(String id) {
        return 0;
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(root, spec, readyTimeout);
    }

    /** The channels this kind's Spaces can serve ({@link SpaceChannels}); by default only the agent. */
    protected Set<String> servedChannels() {
        return Set.of(SpaceChannels.AGENT);
    }

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        Set<String> served = servedChannels();
        List<String> cannot = channels.stream().filter(c -> !served.contains(c)).sorted().toList();
        return cannot.isEmpty() ? Optional.empty()
                : Optional.of("the " + kind() + " kind cannot serve " + cannot + "; it serves " + served.stream().sorted().toList());
    }

    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(root, spec, readyTimeout, Set.of(SpaceChannels.AGENT));
    }

    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout, Set<String> channels) throws SpaceException {
        Optional<String> cannot = channelsUnsupported(channels);
        if (cannot.isPresent()) {
            throw new SpaceException(cannot.get());
        }
        if (root == null) {
            root = this.root;
        }
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        Launch launch = new Launch(channels);
        try {
            SpaceDir dir = SpaceDir.create(root, kind());
            launch.dir = dir.dir();
            Launched launched = launch(dir, spec, readyTimeout, launch);
            live.put(dir.id(), launch.teardown());
            return new Space(dir.id(), kind(), launched.target(), dir.token().token(), dir.bulk(), createdAt,
                    launch.readyAt - start, launched.facts(), launch.ssh, launch.containerExec);
        } catch (IOException | SpaceException | RuntimeException e) {
            throw launch.teardown().failed(kind(), e);
        }
    }

    @Override
    public void delete(Space space) {
        Teardown teardown = live.remove(space.id());
        if (teardown == null) {
            // Not ours or deleted already: still make sure its files are gone.
            forgotten(space);
            teardown = Teardown.directory(root.resolve(space.id()));
        }
        teardown.run();
    }

    /**
     * @param target the gRPC target for {@link Space#target()}
     * @param facts what the provider knows about the Space, for the page
     */
    public record Launched(String target, SpaceFacts facts) {
    }

    /** What a launch has made so far, for the Space's {@link Teardown}, and when its agent was ready. */
    public static final class Launch {
        private final Set<String> channels;
        private Runnable first;
        private Runnable also;
        private Process process;
        private HostShape limits;
        private Path dir;
        private long readyAt;
        private SshAccess ssh;
        private dev.spacebench.space.ContainerExecAccess containerExec;

        private Launch(Set<String> channels) {
            this.channels = Set.copyOf(channels);
        }

        /** Whether the Space must serve {@code channel} ({@link SpaceChannels}) besides its agent. */
        public boolean wants(String channel) {
            return channels.contains(channel);
        }

        /** The kind's own removal step, run before the processes are killed (e.g. removing a container). */
        public void first(Runnable step) {
            this.first = step;
        }

        /**
         * One more removal step, run after the kind's own ({@link #first}) and before the agent's
         * tree is killed: for a server the Space runs beside its agent (its SSH server). Steps given
         * here run in the order given.
         */
        public void also(Runnable step) {
            Runnable before = also;
            this.also = before == null ? step : () -> {
                before.run();
                step.run();
            };
        }

        /** How to reach the SSH server the launch started in the Space. */
        public void ssh(SshAccess access) {
            this.ssh = access;
        }

        /** How to reach the Space through its container engine's exec and cp. */
        public void containerExec(dev.spacebench.space.ContainerExecAccess access) {
            this.containerExec = access;
        }

        /** The cgroups made for the Space, released after its processes are killed. */
        public void limits(HostShape shape) {
            this.limits = shape;
        }

        /** The agent is ready: marks the end of the Space's ready time, and its process tree is killed on teardown. */
        public void ready(AgentProcess agent) {
            this.readyAt = System.nanoTime();
            this.process = agent.process();
        }

        private Teardown teardown() {
            Runnable steps = also == null ? first : first == null ? also : () -> {
                first.run();
                also.run();
            };
            return new Teardown(steps, process, limits, dir);
        }
    }
}
