package dev.spacebench.environment;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * A JVM's garbage collections over some span, as its collectors' MXBeans count them: every
 * collection each bean counts (for G1, young and full collections; for ZGC, its cycles and pauses).
 *
 * @param count collections
 * @param timeNs their time in ns, at the beans' ms resolution
 */
public record JvmGc(long count, long timeNs) {

    /** This JVM's collections since it started. */
    public static JvmGc sinceStart() {
        long count = 0;
        long ms = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            // -1: the collector does not say.
            count += Math.max(0, collector.getCollectionCount());
            ms += Math.max(0, collector.getCollectionTime());
        }
        return new JvmGc(count, ms * 1_000_000);
    }

    /** The collections from {@code earlier} to this one, added to {@code sum} (null: none yet). */
    public static JvmGc addSpan(JvmGc sum, JvmGc earlier, JvmGc later) {
        long count = later.count - earlier.count;
        long timeNs = later.timeNs - earlier.timeNs;
        return sum == null ? new JvmGc(count, timeNs) : new JvmGc(sum.count + count, sum.timeNs + timeNs);
    }

    /** {@code "N collections, M ms in all"}: the count and the time in whole ms (the beans' resolution). */
    public String inWords() {
        return count + " collections, " + timeNs / 1_000_000 + " ms in all";
    }
}
