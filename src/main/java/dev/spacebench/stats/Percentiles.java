package dev.spacebench.stats;

/**
 * The percentile definition Spacebench publishes: <b>nearest rank</b>. The p-th percentile of n
 * sorted samples x[1] ≤ … ≤ x[n] is x[k] with k = ⌈p/100 · n⌉ (and k = 1 for p = 0): the
 * smallest sample such that at least p% of the samples are less than or equal to it. It is
 * always one of the measured values; nothing is interpolated. (Hyndman &amp; Fan 1996,
 * "Sample quantiles in statistical packages", definition 1 — the inverse of the empirical CDF.)
 */
public final class Percentiles {

    private Percentiles() {}

    /**
     * @param p percentile from 0 to 100
     * @param n number of samples, at least 1
     * @return the 1-based rank k = max(1, ⌈p/100 · n⌉)
     * @throws IllegalArgumentException if p is outside 0..100 or n &lt; 1
     */
    public static int rank(double p, int n) {
        if (p < 0 || p > 100 || Double.isNaN(p)) {
            throw new IllegalArgumentException("p must be from 0 to 100, was " + p);
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        // Exact in integer arithmetic for the percentiles we publish (p·n/100 with p = 50, 95, 99
        // and p with at most two decimals), so 95% of 300 is rank 285, not 286 from 284.99999.
        long scaled = Math.round(p * 100);
        long numerator = scaled * n;
        long k = (numerator + 10_000 - 1) / 10_000;
        return (int) Math.max(1, Math.min(n, k));
    }

    /**
     * For callers that take sorted samples from outside: a wrong order would give wrong
     * percentiles without any other sign.
     *
     * @throws IllegalArgumentException if the samples are not in ascending order
     */
    public static void requireSorted(long[] samples) {
        for (int i = 1; i < samples.length; i++) {
            if (samples[i] < samples[i - 1]) {
                throw new IllegalArgumentException("samples must be sorted ascending; index " + i + " is smaller than " + (i - 1));
            }
        }
    }

    /**
     * @param sorted samples in ascending order (ns), at least one
     * @param p percentile from 0 to 100
     * @return the nearest-rank percentile, one of the samples
     */
    public static long of(long[] sorted, double p) {
        return sorted[rank(p, sorted.length) - 1];
    }
}
