package dev.spacebench.metric;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A metric of a comparison run's second, third or fourth entry (issue 29): {@code entry.2.exec.noop}
 * is {@code exec.noop} in the Space of the run's entry 2 (1-based, request order). The first
 * entry's metrics keep their plain ids, so a comparison run reads as a run of its first Space with
 * the others beside it; the entry's label is in each sample's {@code entry} column and in the run.
 *
 * @param base the metric measured: an exec round trip, a transfer, the Space's ready or delete, or one of those via a channel
 * @param entry the entry's 1-based place, 2 to {@value #MAX_ENTRY}
 */
public record InEntry(Metric base, int entry) implements Wrapped {

    static final String PREFIX = "entry.";
    static final int MAX_ENTRY = 4;
    private static final Pattern ID = Pattern.compile("entry\\.([2-4])\\.(.+)");

    public InEntry {
        if (base instanceof InEntry || base instanceof Sweep || base.isFloor() || entry < 2 || entry > MAX_ENTRY) {
            throw new IllegalArgumentException("an entry's metric is an exec, file or Space metric of entry 2 to " + MAX_ENTRY
                    + ", was " + base.id() + " of entry " + entry);
        }
    }

    /** {@code base} as measured in entry {@code entry} (1-based): the base itself for the first, else an {@link InEntry}. */
    public static Metric of(Metric base, int entry) {
        return entry == 1 ? base : new InEntry(base, entry);
    }

    /** The stored id of {@code baseId} in entry {@code entry}: itself for the first, {@code entry.<k>.<baseId>} else. */
    public static String id(String baseId, int entry) {
        return entry == 1 ? baseId : PREFIX + entry + "." + baseId;
    }

    /** The entry (1-based) a stored id belongs to: its prefix's, else 1 (also for ids of no entry, such as the floor's). */
    public static int entryOf(String id) {
        Matcher m = ID.matcher(id == null ? "" : id);
        return m.matches() ? Integer.parseInt(m.group(1)) : 1;
    }

    static Optional<InEntry> parse(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Metric.parse(m.group(2)).filter(b -> !(b instanceof InEntry) && !(b instanceof Sweep) && !b.isFloor())
                .map(b -> new InEntry(b, Integer.parseInt(m.group(1))));
    }

    /** The id with the entry's prefix taken off ({@code exec.noop}), or the id itself. */
    public static String baseId(String id) {
        Matcher m = ID.matcher(id == null ? "" : id);
        return m.matches() ? m.group(2) : id;
    }

    @Override
    public String id() {
        return PREFIX + entry + "." + base.id();
    }

    /** "sh -c true in entry 2". */
    @Override
    public String label() {
        return base.label() + " in entry " + entry;
    }

    @Override
    public long rank() {
        return ((long) entry << 48) | Math.min(base.rank(), (1L << 48) - 1);
    }
}
