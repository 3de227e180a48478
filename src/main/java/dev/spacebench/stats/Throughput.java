package dev.spacebench.stats;

/** Throughput as Spacebench publishes it. */
public final class Throughput {

    public static final double MIB = 1024.0 * 1024.0;

    private Throughput() {}

    /**
     * MiB/s = (bytes / 2^20) / (ns / 10^9): a file's size over one transfer time (the p50).
     *
     * @throws IllegalArgumentException if ns ≤ 0
     */
    public static double mibPerSecond(long bytes, long ns) {
        if (ns <= 0) {
            throw new IllegalArgumentException("ns must be positive, was " + ns);
        }
        return (bytes / MIB) / (ns / 1e9);
    }

    /**
     * MiB/s of a file metric's time, or null where there is none: no bytes (not a file metric),
     * no time (every sample failed), or a time ≤ 0.
     */
    public static Double mibPerSecondOrNull(long bytes, Long ns) {
        return bytes > 0 && ns != null && ns > 0 ? mibPerSecond(bytes, ns) : null;
    }
}
