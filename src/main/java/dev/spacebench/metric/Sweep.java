package dev.spacebench.metric;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A metric measured at one level of the concurrency sweep, pooled over the level's Spaces:
 * {@code sweep.4.exec.sh_c} is {@code exec.sh_c} while 4 Spaces run it at once,
 * {@code sweep.4.space.ready} each of 4 Spaces' time from "create 4 at once" to its first Ping.
 *
 * @param base the metric measured ({@link ExecRoundTrip}, {@link Transfer} or {@link SpaceLifecycle})
 * @param level Spaces busy at once, at least 1
 */
public record Sweep(Metric base, int level) implements Metric {

    static final String PREFIX = "sweep.";
    private static final Pattern ID = Pattern.compile("sweep\\.([1-9][0-9]{0,5})\\.(.+)");

    public Sweep {
        if (base instanceof Sweep || base.isFloor() || level < 1) {
            throw new IllegalArgumentException("a sweep measures an exec, file or Space metric at a level of 1 or more, was "
                    + base.id() + " at " + level);
        }
    }

    /** The level of a stored sweep id, e.g. 4 for {@code sweep.4.exec.sh_c}; empty for any other id. */
    static Optional<Sweep> parse(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<Metric> base = Metric.parse(m.group(2)).filter(b -> !(b instanceof Sweep) && !b.isFloor());
        return base.map(b -> new Sweep(b, Integer.parseInt(m.group(1))));
    }

    /** The id with the sweep's prefix taken off ({@code exec.sh_c}), or the id itself when it is not a sweep's. */
    static String baseId(String id) {
        Matcher m = ID.matcher(id);
        return m.matches() ? m.group(2) : id;
    }

    @Override
    public String id() {
        return PREFIX + level + "." + base.id();
    }

    /** "sh -c true, 4 Spaces busy". */
    @Override
    public String label() {
        return base.label() + ", " + level + (level == 1 ? " Space busy" : " Spaces busy");
    }

    @Override
    public Kind kind() {
        return base.kind();
    }

    @Override
    public int group() {
        return 5;
    }

    /** By level, then as its base metric would be ordered. */
    @Override
    public long rank() {
        return ((long) level << 34) | ((long) base.group() << 30) | Math.min(base.rank(), (1L << 30) - 1);
    }
}
