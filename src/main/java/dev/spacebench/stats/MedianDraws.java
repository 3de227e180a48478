package dev.spacebench.stats;

import java.util.Arrays;
import java.util.Random;
import org.apache.commons.math3.special.Beta;

/**
 * Draws the nearest-rank median of a bootstrap resample of n sorted samples without building the
 * resample: its exact distribution is known (Efron 1979, "Bootstrap methods: another look at the
 * jackknife", Ann. Statist. 7(1), §3; Maritz &amp; Jarrett 1978, JASA 73(361), 194–196). The
 * resample's k-th smallest value (k = the median's rank) is at most x[j] exactly when at least k
 * of the n draws land on x[1..j], so P(median* ≤ x[j]) = P(Binomial(n, j/n) ≥ k) =
 * I_{j/n}(k, n − k + 1), the regularized incomplete beta function. One uniform number and a binary
 * search over j give one draw: O(log n) a replicate instead of O(n).
 */
final class MedianDraws {

    private final long[] sorted;
    private final int rank;
    /** P(median* ≤ x[j]) by j, filled as the searches need them (NaN: not yet). */
    private final double[] cdf;

    /** @param sorted samples, ascending, at least one; not copied */
    MedianDraws(long[] sorted) {
        this.sorted = sorted;
        this.rank = Percentiles.rank(50, sorted.length);
        this.cdf = new double[sorted.length + 1];
        Arrays.fill(cdf, Double.NaN);
    }

    /** The median of one bootstrap resample, drawn with one {@code random.nextDouble()}. */
    long next(Random random) {
        double u = random.nextDouble();
        int low = 1;
        int high = sorted.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cdf(mid) >= u) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return sorted[low - 1];
    }

    private double cdf(int j) {
        double value = cdf[j];
        if (Double.isNaN(value)) {
            int n = sorted.length;
            value = j == n ? 1 : Beta.regularizedBeta((double) j / n, rank, n - rank + 1);
            cdf[j] = value;
        }
        return value;
    }
}
