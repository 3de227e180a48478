package dev.spacebench.metric;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An exec round trip or a transfer measured through a channel other than the agent, on the same
 * Space: {@code via.ssh.exec.true} is {@code exec.true} over SSH. The agent's metrics keep their
 * ids ({@code exec.true}), so runs stored before channels read as they did.
 *
 * @param base the metric measured ({@link ExecRoundTrip} or {@link Transfer})
 * @param channel the channel's id: lower-case letters, digits and '-', not {@value #AGENT}
 */
public record Via(Metric base, String channel) implements Wrapped {

    /** The channel whose metrics carry no prefix. */
    public static final String AGENT = "agent";
    static final String PREFIX = "via.";
    private static final Pattern CHANNEL = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    private static final Pattern ID = Pattern.compile("via\\.([a-z][a-z0-9-]{0,31})\\.(.+)");

    public Via {
        if (!(base instanceof ExecRoundTrip || base instanceof Transfer) || channel == null || AGENT.equals(channel)
                || !CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("a channel's metric is an exec or file metric through a channel other than "
                    + AGENT + ", was " + base.id() + " via " + channel);
        }
    }

    /**
     * {@code base} as measured through {@code channel}: the base itself for the agent, else a {@link Via}.
     */
    public static Metric of(Metric base, String channel) {
        return AGENT.equals(channel) ? base : new Via(base, channel);
    }

    /** The channel of a stored id: its via's, else {@value #AGENT} for an exec or file id, else empty (Space, floor, sweep). */
    public static Optional<String> channelOf(String id) {
        id = InEntry.baseId(id);
        Matcher m = ID.matcher(id == null ? "" : id);
        if (m.matches()) {
            return Optional.of(m.group(1));
        }
        Kind kind = Kind.ofId(id);
        return (kind == Kind.EXEC || kind == Kind.UPLOAD || kind == Kind.DOWNLOAD) && !(id.startsWith(Sweep.PREFIX))
                ? Optional.of(AGENT) : Optional.empty();
    }

    static Optional<Via> parse(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        return ExecRoundTrip.fromId(m.group(2)).map(Metric.class::cast).or(() -> Transfer.parse(m.group(2)).map(Metric.class::cast))
                .map(b -> new Via(b, m.group(1)));
    }

    /** The id with the via prefix taken off ({@code exec.true}), or the id itself. */
    static String baseId(String id) {
        Matcher m = ID.matcher(id);
        return m.matches() ? m.group(2) : id;
    }

    @Override
    public String id() {
        return PREFIX + channel + "." + base.id();
    }

    /** "sh -c true over ssh". */
    @Override
    public String label() {
        return base.label() + " over " + channel;
    }

    @Override
    public long rank() {
        return (1L << 40) | ((long) (channel.hashCode() & 0xff) << 32) | Math.min(base.rank(), (1L << 32) - 1);
    }
}
