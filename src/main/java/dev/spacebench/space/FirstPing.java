package dev.spacebench.space;

import dev.spacebench.channel.Channel;
import java.time.Duration;
import java.util.Optional;

/**
 * Waits for a fresh Space's agent to answer its first Ping: a Ping of at most {@link #EACH} every
 * {@link #PAUSE} until one answers or the deadline passes. The one way the run, the sweep and the
 * kind checks wait for it; how long each waits is theirs to say ({@link #SINGLE_SPACE} or the
 * ready timeout).
 */
public final class FirstPing {

    /** How long one Space's agent, once its kind says it is ready, may take to answer: the run's single Spaces and the kind checks. */
    public static final Duration SINGLE_SPACE = Duration.ofSeconds(30);
    /** The most one Ping may take. */
    public static final Duration EACH = Duration.ofSeconds(5);
    /** Between Pings that failed. */
    public static final Duration PAUSE = Duration.ofMillis(10);

    private FirstPing() {}

    /**
     * @return empty once a Ping answered; else the last Ping's failure
     * @throws InterruptedException if interrupted between Pings (the interrupt flag is set again)
     */
    public static Optional<Exception> await(Channel channel, Duration within) throws InterruptedException {
        return Retry.untilDeadline(within, PAUSE, () -> channel.noop(EACH));
    }
}
