package dev.spacebench.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The two-sided Mann–Whitney U test (Wilcoxon rank-sum): do two sets of samples come from the
 * same distribution, against one tending to be larger? Distribution-free, so it suits skewed
 * latencies.
 *
 * <p>U₁ = R₁ − n₁(n₁+1)/2 with R₁ the sum of the first set's mid-ranks in the pooled samples;
 * z = (max(U₁, U₂) − n₁n₂/2 − ½) / σ with the tie-corrected
 * σ² = n₁n₂/12 · ((N+1) − Σ(t³−t) / (N(N−1))) over tie groups of size t, N = n₁+n₂; and
 * p = min(1, 2·(1 − Φ(z))) (Conover, <i>Practical Nonparametric Statistics</i>, 3rd ed., 1999,
 * §5.1; Lehmann, <i>Nonparametrics</i>, 1975, §1.4 for the tie correction). These are the figures
 * of SciPy's {@code mannwhitneyu(x, y, alternative="two-sided", method="asymptotic",
 * use_continuity=True)}. Commons Math's {@code MannWhitneyUTest} has neither the tie nor the
 * continuity correction, and timer-quantised latencies do tie, so only its normal distribution is
 * used here; the mid-ranks come from one walk over both sets sorted (O(n log n), no object per
 * sample). The approximation is fair from about 8 samples per set.
 *
 * @param test the test's name and variant, for publishing next to the p-value
 * @param u U₁: the number of pairs (x, y) with x &gt; y, ties counting one half
 * @param z the standardised statistic (0 when every sample is equal)
 * @param pValue two-sided p-value, 0..1
 */
public record MannWhitney(String test, double u, double z, double pValue) {

    public static final String NAME =
            "Mann-Whitney U, two-sided, normal approximation with tie and continuity correction";

    /**
     * @param x first set, ns (any order; not modified)
     * @param y second set, ns
     * @throws IllegalArgumentException if either set is empty
     */
    public static MannWhitney of(long[] x, long[] y) {
        if (x.length == 0 || y.length == 0) {
            throw new IllegalArgumentException("both sets need samples, had " + x.length + " and " + y.length);
        }
        double n1 = x.length;
        double n2 = y.length;
        double total = n1 + n2;
        long[] a = x.clone();
        long[] b = y.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        // One walk over both sorted sets, a group of equal values at a time: each group's mid-rank
        // and its tie term, in O(n log n) for the sorts and no object per sample.
        double rankSum = 0;
        double tieTerm = 0;
        long before = 0;
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            long value = j == b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
            int inA = 0;
            while (i < a.length && a[i] == value) {
                i++;
                inA++;
            }
            int inB = 0;
            while (j < b.length && b[j] == value) {
                j++;
                inB++;
            }
            double t = inA + inB;
            rankSum += inA * (before + (t + 1) / 2);
            tieTerm += t * t * t - t;
            before += inA + inB;
        }
        double u1 = rankSum - n1 * (n1 + 1) / 2;
        double larger = Math.max(u1, n1 * n2 - u1);
        double variance = n1 * n2 / 12 * ((total + 1) - tieTerm / (total * (total - 1)));
        if (variance <= 0) {
            // Every sample equal: nothing tells the sets apart.
            return new MannWhitney(NAME, u1, 0, 1);
        }
        double z = (larger - n1 * n2 / 2 - 0.5) / Math.sqrt(variance);
        double p = Math.min(1, 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-z));
        return new MannWhitney(NAME, u1, z, p);
    }
}
