package dev.spacebench.stats;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The distribution-free confidence interval for a percentile, by the binomial (order-statistic)
 * method: no assumption about the shape of the latency distribution, only that the samples are
 * independent draws from it.
 *
 * <p><b>Method.</b> With q = p/100, n sorted samples x(1) ≤ … ≤ x(n) and ξ the true q-quantile,
 * the number of samples at or below ξ is B ~ Binomial(n, q), so for ranks l &lt; u
 * <pre>P(x(l) ≤ ξ &lt; x(u)) = P(l ≤ B &lt; u) = F(u−1) − F(l−1)</pre>
 * with F the Binomial(n, q) CDF (Conover, <i>Practical Nonparametric Statistics</i>, 3rd ed.,
 * 1999, §3.2; David &amp; Nagaraja, <i>Order Statistics</i>, 3rd ed., 2003, §7.1; Hahn &amp;
 * Meeker, <i>Statistical Intervals</i>, 1991, ch. 5). For continuous data that is exact; with
 * ties the closed interval [x(l), x(u)] covers at least as often. F comes from Commons Math's
 * {@link BinomialDistribution}.
 *
 * <p><b>Which pair of ranks (the exact rule, so that another implementation lands on the same
 * ranks).</b> Ranks run over the extended range l ∈ 0..n, u ∈ 1..n+1, l &lt; u, where l = 0
 * stands for "below the fastest sample" and u = n+1 for "above the slowest sample" (open ends),
 * with F(−1) = 0 and F(n) = 1. Among all pairs whose coverage F(u−1) − F(l−1) is ≥ the level
 * (compared as doubles, no tolerance), the chosen pair is the first in this order:
 * <ol>
 *   <li>fewest open ends (a bounded interval whenever one exists);</li>
 *   <li>smallest u − l (the shortest in ranks);</li>
 *   <li>largest coverage, where coverages within {@value #COVERAGE_TIE} count as equal (for a
 *       given width, the window where B is most likely: around its mode, nq);</li>
 *   <li>smallest l (only the mirror-image pairs of p50 are still tied here).</li>
 * </ol>
 * Some figures at the 95% level (ranks l–u; "open": no sample bounds it above):
 * n = 20: p50 6–15, p95 17–open, p99 19–open; n = 300: p50 133–167, p95 278–293, p99 290–300;
 * n = 1000: p50 469–531, p95 937–964, p99 984–997. The largest n at which p99 has no bounded
 * interval is 298: up to there 1 − 0.99ⁿ − 0.01ⁿ, the most any bounded pair (1, n) can cover,
 * is under 0.95. At n = 299 and 300 the bounded interval ends at the slowest sample.
 *
 * @param ranks which samples bound the interval, and how sure it is
 * @param lower x(lowerRank) in ns; when the interval is open below, the fastest sample, and the
 *     percentile may lie below it
 * @param upper x(upperRank) in ns; when the interval is open above, the slowest sample, and the
 *     percentile may lie above it
 */
public record OrderStatisticInterval(Ranks ranks, long lower, long upper) {

    public static final double DEFAULT_LEVEL = 0.95;
    /** Coverages closer than this are equal for rule 3; floating-point CDFs differ in the last bits. */
    public static final double COVERAGE_TIE = 1e-12;

    /**
     * The ranks alone, a function of (percentile, n, level); they do not depend on the samples.
     *
     * @param percentile p, strictly between 0 and 100
     * @param n number of samples
     * @param level requested confidence, e.g. 0.95
     * @param lowerRank 1-based rank of the lower end; 1 when the interval is open below
     * @param lowerBounded false when no sample bounds the interval from below at this level
     * @param upperRank 1-based rank of the upper end; n when the interval is open above
     * @param upperBounded false when no sample bounds the interval from above at this level
     *     (too few samples for this percentile: the true value may exceed every sample)
     * @param coverage the achieved P(interval contains the percentile), ≥ level; an open end
     *     counts as reaching to ±∞
     */
    public record Ranks(double percentile, int n, double level, int lowerRank, boolean lowerBounded,
                        int upperRank, boolean upperBounded, double coverage) {}

    /** @see #ranks(double, int, double) */
    public static Ranks ranks(double percentile, int n) {
        return ranks(percentile, n, DEFAULT_LEVEL);
    }

    /**
     * Chooses the ranks by the rule in the class comment, in O(n) CDF evaluations.
     *
     * @throws IllegalArgumentException if percentile is not strictly between 0 and 100, n &lt; 1,
     *     or level is not strictly between 0 and 1
     */
    public static Ranks ranks(double percentile, int n, double level) {
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be strictly between 0 and 100, was " + percentile);
        }
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be strictly between 0 and 1, was " + level);
        }
        double[] cdf = extendedCdf(n, percentile / 100);
        int bestL = -1;
        int bestU = -1;
        double bestCoverage = 0;
        int u = 1;
        for (int l = 0; l <= n; l++) {
            // The smallest u for this l dominates every larger u under rules 1 and 2, and it
            // never moves down as l grows, so one pass suffices.
            u = Math.max(u, l + 1);
            while (u <= n + 1 && cdf[u] - cdf[l] < level) {
                u++;
            }
            if (u > n + 1) {
                break;
            }
            double coverage = cdf[u] - cdf[l];
            if (bestL < 0 || better(l, u, coverage, bestL, bestU, bestCoverage, n)) {
                bestL = l;
                bestU = u;
                bestCoverage = coverage;
            }
        }
        return new Ranks(percentile, n, level, Math.max(bestL, 1), bestL >= 1, Math.min(bestU, n), bestU <= n,
                bestCoverage);
    }

    /** @see #of(long[], double, double) */
    public static OrderStatisticInterval of(long[] sorted, double percentile) {
        return of(sorted, percentile, DEFAULT_LEVEL);
    }

    /**
     * @param sorted samples in ns, ascending, at least one
     * @throws IllegalArgumentException if the samples are empty or not ascending, or for the
     *     arguments {@link #ranks(double, int, double)} refuses
     */
    public static OrderStatisticInterval of(long[] sorted, double percentile, double level) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("a confidence interval needs at least one sample");
        }
        Percentiles.requireSorted(sorted);
        Ranks ranks = ranks(percentile, sorted.length, level);
        return new OrderStatisticInterval(ranks, sorted[ranks.lowerRank() - 1], sorted[ranks.upperRank() - 1]);
    }

    /** Index i holds F(i − 1), i = 0..n+1, so F(−1) = 0 and F(n) = 1 need no special cases. */
    private static double[] extendedCdf(int n, double q) {
        BinomialDistribution binomial = new BinomialDistribution(null, n, q);
        double[] cdf = new double[n + 2];
        for (int k = 0; k < n; k++) {
            cdf[k + 1] = binomial.cumulativeProbability(k);
        }
        cdf[n + 1] = 1;
        return cdf;
    }

    private static boolean better(int l, int u, double coverage, int bestL, int bestU, double bestCoverage, int n) {
        int open = openEnds(l, u, n);
        int bestOpen = openEnds(bestL, bestU, n);
        if (open != bestOpen) {
            return open < bestOpen;
        }
        if (u - l != bestU - bestL) {
            return u - l < bestU - bestL;
        }
        // Candidates arrive in ascending l, so keeping the incumbent on a tie is rule 4.
        return coverage > bestCoverage + COVERAGE_TIE;
    }

    private static int openEnds(int l, int u, int n) {
        return (l == 0 ? 1 : 0) + (u == n + 1 ? 1 : 0);
    }
}
