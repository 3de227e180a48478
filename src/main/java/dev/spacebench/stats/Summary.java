package dev.spacebench.stats;

import java.util.Arrays;

/**
 * Figures of one metric's measured, successful samples. All times in ns.
 *
 * @param n samples the figures are computed from
 * @param min the fastest sample
 * @param p50 median, nearest rank ({@link Percentiles})
 * @param p95 95th percentile, nearest rank
 * @param p99 99th percentile, nearest rank
 * @param max the slowest sample
 * @param mean arithmetic mean
 * @param stddev sample standard deviation (divisor n − 1; 0 when n = 1)
 */
public record Summary(int n, long min, long p50, long p95, long p99, long max, double mean, double stddev) {

    /**
     * @param samples sample durations in ns, in any order; not modified
     * @throws IllegalArgumentException if there are no samples
     */
    public static Summary of(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("a summary needs at least one sample");
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return ofSorted(sorted);
    }

    /**
     * The same figures from samples already in ascending order, without a copy or a sort (a million
     * samples sorted once serve the figures, the percentile table and the stored sorted samples).
     *
     * @param sorted sample durations in ns, ascending; not modified
     * @throws IllegalArgumentException if there are no samples, or they are not in ascending order
     */
    public static Summary ofSorted(long[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            throw new IllegalArgumentException("a summary needs at least one sample");
        }
        double mean = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && sorted[i] < sorted[i - 1]) {
                throw new IllegalArgumentException("samples must be in ascending order: sample " + i + " (" + sorted[i]
                        + " ns) is below the one before it (" + sorted[i - 1] + " ns)");
            }
            mean += (double) sorted[i];
        }
        mean /= n;
        double squares = 0;
        for (long s : sorted) {
            double d = s - mean;
            squares += d * d;
        }
        double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        return new Summary(n, sorted[0], Percentiles.of(sorted, 50), Percentiles.of(sorted, 95),
                Percentiles.of(sorted, 99), sorted[n - 1], mean, stddev);
    }
}
