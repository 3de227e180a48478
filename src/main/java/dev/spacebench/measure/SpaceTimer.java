package dev.spacebench.measure;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.channel.AgentInfo;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.space.FirstPing;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Creates, pings and deletes the Spaces a run measures, and times them: {@code space.ready} runs
 * from the start of create to the first Ping that succeeds ({@link FirstPing}), its three parts
 * split it, and {@code space.delete} is the provider's delete. The one place the run's single
 * Spaces and the sweep's Spaces are made and timed; the kind checks wait for the first Ping the
 * same way ({@link FirstPing}) but make their Spaces through their provider, untimed.
 */
public final class SpaceTimer {

    private final Spaces spaces;
    private final AgentChannels channels;
    private final SpaceSpec spec;
    private final Duration readyTimeout;
    private final int chunkBytes;

    /**
     * @param readyTimeout how long a provider waits for its agent's readiness ({@code spacebench.space.ready-timeout})
     * @param chunkBytes the plan's stream chunk size, for the channels opened
     */
    public SpaceTimer(Spaces spaces, AgentChannels channels, SpaceSpec spec, Duration readyTimeout, int chunkBytes) {
        this.spaces = spaces;
        this.channels = channels;
        this.spec = spec;
        this.readyTimeout = readyTimeout;
        this.chunkBytes = chunkBytes;
    }

    /** Told of a Space as soon as it exists, before anything else can fail, so that the caller deletes it whatever happens. */
    @FunctionalInterface
    public interface Made {
        void space(Space space) throws IOException;
    }

    /**
     * How long the first Ping may take and how a miss is named.
     *
     * @param within the deadline from the moment the channel is open
     * @param setting the property that sets it, named in the failure; null for a fixed deadline
     * @param label what the failure starts with, e.g. "Space 3: "; empty for none
     */
    public record FirstPingWait(Duration within, String setting, String label) {

        /** A run's single Space: {@link FirstPing#SINGLE_SPACE}. */
        public static FirstPingWait singleSpace() {
            return new FirstPingWait(FirstPing.SINGLE_SPACE, null, "");
        }
    }

    /**
     * A Space whose agent answered, its channel open.
     *
     * @param createStart System.nanoTime the ready time runs from
     * @param created System.nanoTime when create returned (the host learnt the agent listens)
     * @param pinged System.nanoTime when the first Ping succeeded
     */
    public record Ready(Space space, AgentChannel channel, long createStart, long created, long pinged) {

        /** {@code space.ready} in ns: create's start to the first successful Ping. */
        public long readyNs() {
            return pinged - createStart;
        }

        /** This ready time as the sample {@code space.ready} of {@code iteration} (outside a sweep). */
        public Sample sample(int iteration) {
            return new Sample(SpaceLifecycle.READY.id(), iteration, Phase.MEASURED, readyNs(), 0, true, null);
        }

        /**
         * Ready's three parts, which add up to it: the agent's start as it reports it (JVM start to
         * listening), the first Ping (create returned, i.e. the host learnt the agent listens, to the
         * Ping's success), and the Space's creation (the rest). Empty when the agent reports no start time.
         */
        public List<Sample> parts(AgentInfo info, int iteration) {
            if (info.process().startToListenNs() <= 0) {
                return List.of();
            }
            long ping = pinged - created;
            long agent = Math.min(info.process().startToListenNs(), created - createStart);
            return List.of(
                    new Sample(SpaceLifecycle.READY_CREATE.id(), iteration, Phase.MEASURED, created - createStart - agent, 0, true, null),
                    new Sample(SpaceLifecycle.READY_AGENT.id(), iteration, Phase.MEASURED, agent, 0, true, null),
                    new Sample(SpaceLifecycle.READY_PING.id(), iteration, Phase.MEASURED, ping, 0, true, null));
        }
    }

    /**
     * Creates a Space, opens its channel and waits for its first Ping. On a failure after create the
     * channel is closed here; the Space is the caller's to delete (it was handed to {@code made}).
     *
     * @param createStart System.nanoTime to time ready from: now for one Space, a burst's common start for a sweep
     * @param made told of the Space as soon as it exists; what it throws ends the attempt
     * @throws SpaceException when the Space cannot be made (nothing left behind)
     * @throws SpaceLostException when no Ping succeeds within {@code wait}, naming it
     * @throws InterruptedException if interrupted while waiting for the Ping
     */
    public Ready create(long createStart, FirstPingWait wait, Made made) throws SpaceException, IOException, InterruptedException {
        Space space = spaces.create(spec, readyTimeout);
        long created = System.nanoTime();
        made.space(space);
        AgentChannel channel = channels.open(space.target(), space.token(), space.bulkDir(), chunkBytes);
        try {
            Optional<Exception> failed = FirstPing.await(channel, wait.within());
            if (failed.isPresent()) {
                throw new SpaceLostException(wait.label() + "the agent said it was ready but no Ping succeeded within "
                        + wait.within().toSeconds() + " s" + (wait.setting() == null ? "" : " (" + wait.setting() + ")") + ": "
                        + failed.get().getMessage(), failed.get());
            }
            return new Ready(space, channel, createStart, created, System.nanoTime());
        } catch (RuntimeException | InterruptedException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Deletes the Space, timed.
     *
     * @return {@code space.delete} in ns
     * @throws RuntimeException what the provider's delete threw
     */
    public long delete(Space space) {
        long start = System.nanoTime();
        spaces.delete(space);
        return System.nanoTime() - start;
    }

    /** {@code space.delete} of {@code iteration} (outside a sweep) as a sample. */
    public static Sample deleteSample(long ns, int iteration) {
        return new Sample(SpaceLifecycle.DELETE.id(), iteration, Phase.MEASURED, ns, 0, true, null);
    }
}
