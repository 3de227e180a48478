package dev.spacebench.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * How many times slower one series is than another when both were measured in blocks taken in
 * turn (A's block i paired with B's block i, as an interleaved run takes them), with a
 * distribution-free confidence interval that the host's drift between blocks cannot bias.
 *
 * <p>Each pair of blocks gives one log-ratio d<sub>i</sub> = ln(median(A<sub>i</sub>) /
 * median(B<sub>i</sub>)) of its nearest-rank medians ({@link Percentiles}): drift that slows both
 * blocks of a pair alike cancels in it. The estimate is the Hodges–Lehmann estimator of the
 * d<sub>i</sub>' centre, the median of the M = k(k+1)/2 Walsh averages (d<sub>i</sub> +
 * d<sub>j</sub>)/2, i ≤ j, and the interval is the one that inverts the two-sided Wilcoxon
 * signed-rank test: [W<sub>(C)</sub>, W<sub>(M+1−C)</sub>] of the sorted Walsh averages, with C =
 * M + 1 − t and t the smallest value with P(T⁺ ≥ t) ≤ α/2 under the null distribution of the
 * signed-rank statistic T⁺ (Hollander, Wolfe &amp; Chicken, <i>Nonparametric Statistical
 * Methods</i>, 3rd ed., 2014, §3.2 (estimator) and §3.3 (interval); the same as Hollander &amp;
 * Wolfe 1999, §3.2–3.3). It assumes the d<sub>i</sub> are independent and symmetric about their
 * centre, not normal. Up to {@link #EXACT_MAX_BLOCKS} blocks T⁺'s distribution is computed exactly
 * (its counts by dynamic programming over the ranks); above, C is the large-sample
 * approximation with the continuity correction, the smallest T⁺ the normal test accepts. The
 * estimate and ends go back to a ratio by exp; coverage is at least the level asked for (exact
 * case), since T⁺ is discrete.
 *
 * <p>The one computation of a paired ratio in Spacebench: {@link #byBlock} is what every page, page.md, result.json
 * and {@code /compare} show, for a Space over its floor and a channel over the agent ({@code publish.PairedFigures}),
 * a comparison run's entry over its first ({@code run.ComparisonFigures}) and one interleaved run over another
 * ({@code compare.Comparer}).
 *
 * <p>At 95% fewer than 6 blocks cannot bound the interval (P(T⁺ = M) = 2<sup>−k</sup> &gt;
 * α/2): then {@link #lower()} is 0 and {@link #upper()} is +∞, and {@link #bounded()} is false.
 *
 * @param ratio exp(Hodges–Lehmann estimate): the paired ratio of medians, A over B
 * @param lower lower end of the interval (0 when unbounded)
 * @param upper upper end of the interval (+∞ when unbounded)
 * @param level confidence level asked for, e.g. 0.95
 * @param blocks k, the number of block pairs
 * @param exact whether C came from T⁺'s exact distribution (else from the normal approximation)
 */
public record PairedRatio(double ratio, double lower, double upper, double level, int blocks, boolean exact) {

    public static final double DEFAULT_LEVEL = 0.95;
    /**
     * Up to this many blocks the signed-rank distribution is exact (O(k³) work, tens of ms at 400);
     * above, the normal approximation, which is within a rank or two of it there.
     */
    public static final int EXACT_MAX_BLOCKS = 400;
    /** What a page names as the method. */
    public static final String METHOD = "Hodges-Lehmann estimate with the Wilcoxon signed-rank interval on the log-ratios"
            + " of paired block medians (Hollander, Wolfe & Chicken 2014, sections 3.2-3.3)";

    /** Whether the data bound the interval on both sides. */
    public boolean bounded() {
        return lower > 0 && Double.isFinite(upper);
    }

    /** Whether the interval holds 1: the data cannot tell the two series apart. */
    public boolean includesOne() {
        return lower <= 1 && upper >= 1;
    }

    /**
     * A over B paired by block at {@link #DEFAULT_LEVEL}: the blocks both series have, in block order, through
     * {@link #ofMedians}. Blocks only one side has (a run that stopped between the two, a block whose samples all
     * failed on one side) are left out.
     *
     * @param a block → A's nearest-rank block median in ns (each &gt; 0)
     * @param b block → B's, likewise
     * @return empty when the two share no block
     * @throws IllegalArgumentException as {@link #ofMedians}
     */
    public static Optional<PairedRatio> byBlock(SortedMap<Integer, Long> a, SortedMap<Integer, Long> b) {
        List<Integer> common = a.keySet().stream().filter(b::containsKey).toList();
        if (common.isEmpty()) {
            return Optional.empty();
        }
        long[] top = common.stream().mapToLong(a::get).toArray();
        long[] bottom = common.stream().mapToLong(b::get).toArray();
        return Optional.of(ofMedians(top, bottom, DEFAULT_LEVEL));
    }

    /** 95%; see {@link #of(List, List, double)}. */
    public static PairedRatio of(List<long[]> aBlocks, List<long[]> bBlocks) {
        return of(aBlocks, bBlocks, DEFAULT_LEVEL);
    }

    /**
     * @param aBlocks A's blocks in the order taken, each its samples in ns (any order; not modified)
     * @param bBlocks B's, as many; block i is paired with A's block i
     * @throws IllegalArgumentException if the counts differ, there is no block, a block is empty, a
     *     block median is ≤ 0, or level is not strictly between 0 and 1
     */
    public static PairedRatio of(List<long[]> aBlocks, List<long[]> bBlocks, double level) {
        if (aBlocks.size() != bBlocks.size() || aBlocks.isEmpty()) {
            throw new IllegalArgumentException("both series need the same number of blocks, at least 1, had "
                    + aBlocks.size() + " and " + bBlocks.size());
        }
        return ofMedians(medians(aBlocks), medians(bBlocks), level);
    }

    /**
     * From block medians already taken.
     *
     * @param aMedians A's block medians, ns, each &gt; 0, in block order
     * @param bMedians B's, as many, each &gt; 0
     * @throws IllegalArgumentException as {@link #of(List, List, double)}
     */
    public static PairedRatio ofMedians(long[] aMedians, long[] bMedians, double level) {
        if (aMedians.length != bMedians.length || aMedians.length == 0) {
            throw new IllegalArgumentException("both series need the same number of blocks, at least 1, had "
                    + aMedians.length + " and " + bMedians.length);
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be strictly between 0 and 1, was " + level);
        }
        int k = aMedians.length;
        double[] d = new double[k];
        for (int i = 0; i < k; i++) {
            if (aMedians[i] <= 0 || bMedians[i] <= 0) {
                throw new IllegalArgumentException("block medians must be positive durations, block " + (i + 1) + " had "
                        + aMedians[i] + " and " + bMedians[i]);
            }
            d[i] = Math.log((double) aMedians[i] / bMedians[i]);
        }
        Arrays.sort(d);
        long m = (long) k * (k + 1) / 2;
        double estimate = m % 2 == 1 ? walsh(d, (m + 1) / 2) : (walsh(d, m / 2) + walsh(d, m / 2 + 1)) / 2;
        boolean exact = k <= EXACT_MAX_BLOCKS;
        long c = exact ? exactC(k, (1 - level) / 2) : approximateC(k, (1 - level) / 2);
        double lower = c < 1 ? 0 : Math.exp(walsh(d, c));
        double upper = c < 1 ? Double.POSITIVE_INFINITY : Math.exp(walsh(d, m + 1 - c));
        return new PairedRatio(Math.exp(estimate), lower, upper, level, k, exact);
    }

    /** The nearest-rank median of each block. */
    static long[] medians(List<long[]> blocks) {
        long[] medians = new long[blocks.size()];
        for (int i = 0; i < medians.length; i++) {
            if (blocks.get(i).length == 0) {
                throw new IllegalArgumentException("block " + (i + 1) + " has no samples");
            }
            medians[i] = Percentiles.of(RatioOfMedians.sorted(blocks.get(i)), 50);
        }
        return medians;
    }

    /**
     * C = M + 1 − t with t the smallest value such that P(T⁺ ≥ t) ≤ tail, from T⁺'s exact null
     * distribution: each rank 1..k joins the positive sum with probability ½. 0 when no t ≤ M has
     * so small a tail (the interval is unbounded).
     */
    static long exactC(int k, double tail) {
        int m = k * (k + 1) / 2;
        // Probabilities, not counts: 2^k overflows a long from k = 63.
        double[] p = new double[m + 1];
        p[0] = 1;
        int top = 0;
        for (int r = 1; r <= k; r++) {
            top += r;
            for (int s = top; s >= 0; s--) {
                p[s] = 0.5 * p[s] + (s >= r ? 0.5 * p[s - r] : 0);
            }
        }
        double upperTail = 0;
        int t = m + 1;
        // Walk down from M while the tail P(T⁺ ≥ s) stays within the bound; a small tolerance keeps a
        // tail that is exactly α/2 (in exact arithmetic) from being lost to rounding.
        for (int s = m; s >= 0; s--) {
            upperTail += p[s];
            if (upperTail > tail * (1 + 1e-12)) {
                break;
            }
            t = s;
        }
        return t == m + 1 ? 0 : m + 1 - t;
    }

    /**
     * The normal approximation to C with the continuity correction: the smallest T⁺ the two-sided
     * test accepts, |T⁺ − M/2| − ½ &lt; z<sub>α/2</sub>·σ, σ² = k(k+1)(2k+1)/24; at least 1.
     */
    static long approximateC(int k, double tail) {
        double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - tail);
        double c = k * (k + 1.0) / 4 - z * Math.sqrt(k * (k + 1.0) * (2.0 * k + 1) / 24) - 0.5;
        return Math.max(1, (long) Math.floor(c) + 1);
    }

    /** How many of the Walsh sums d[i] + d[j], i ≤ j, are ≤ v; d sorted. Two pointers, O(k). */
    private static long countAtMost(double[] d, double v) {
        long count = 0;
        int j = d.length - 1;
        for (int i = 0; i < d.length && i <= j; i++) {
            while (j >= i && d[i] + d[j] > v) {
                j--;
            }
            if (j >= i) {
                count += j - i + 1;
            }
        }
        return count;
    }

    /** The first index j ≥ from with d[j] &gt; v (binary search); d sorted. */
    private static int firstAbove(double[] d, int from, double v) {
        int low = from;
        int high = d.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (d[mid] > v) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        // One step back: d[i] + d[j] > lo is checked on the sum itself, which rounds differently.
        return Math.max(from, low - 1);
    }

    /**
     * The r-th smallest (1-based) Walsh average of sorted d, without building all M of them: the
     * sums are bisected by value until few enough lie between the bounds, and those are sorted.
     */
    static double walsh(double[] d, long r) {
        int k = d.length;
        double lo = 2 * d[0] - 1;
        double hi = 2 * d[k - 1];
        long below = 0;
        while (true) {
            long atHi = countAtMost(d, hi);
            if (atHi - below <= Math.max(4096, k)) {
                double[] between = new double[(int) (atHi - below)];
                int n = 0;
                for (int i = 0; i < k; i++) {
                    for (int j = firstAbove(d, i, lo - d[i]); j < k && d[i] + d[j] <= hi; j++) {
                        if (d[i] + d[j] > lo) {
                            between[n++] = d[i] + d[j];
                        }
                    }
                }
                Arrays.sort(between, 0, n);
                return between[(int) (r - below - 1)] / 2;
            }
            double mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) {
                // No double lies between: every sum in (lo, hi] equals hi.
                return hi / 2;
            }
            long atMid = countAtMost(d, mid);
            if (atMid >= r) {
                hi = mid;
            } else {
                lo = mid;
                below = atMid;
            }
        }
    }
}
