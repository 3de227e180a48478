package dev.spacebench.stats;

import java.util.Arrays;
import java.util.Random;

/**
 * How many times slower one set of samples is than another, by the ratio of their medians, with
 * a percentile-bootstrap confidence interval (Efron &amp; Tibshirani, <i>An Introduction to the
 * Bootstrap</i>, 1993, ch. 13).
 *
 * <p>Medians are nearest-rank p50s ({@link Percentiles}), the figure Spacebench publishes. Each
 * of B replicates resamples both sets with replacement, at their own sizes, and takes the ratio
 * of the resampled medians; the interval's ends are the nearest-rank α/2 and 1 − α/2 percentiles
 * of the B ratios (for B = 2000 at 95%: the 50th and the 1950th smallest). A resample's median is
 * drawn from its exact distribution ({@link MedianDraws}: Efron 1979, §3) rather than by building
 * the resample, so a replicate costs O(log n), not O(n), and two sets of a million samples take
 * well under a second after their sort; every sample counts, none is subsampled. The draws come
 * from {@code java.util.Random(seed)}, whose algorithm the JDK specifies, so a seed gives the same
 * interval on every JVM: per replicate one {@code nextDouble()} for the numerator's median, then
 * one for the denominator's.
 *
 * @param ratio median(numerator) / median(denominator) of the samples themselves
 * @param lower lower end of the interval
 * @param upper upper end of the interval
 * @param level confidence level, e.g. 0.95
 * @param resamples B, the number of bootstrap replicates
 * @param seed the seed the replicates were drawn with
 */
public record RatioOfMedians(double ratio, double lower, double upper, double level, int resamples, long seed) {

    public static final int DEFAULT_RESAMPLES = 2000;
    public static final double DEFAULT_LEVEL = 0.95;

    /** 95% with B = 2000; see {@link #of(long[], long[], long, int, double)}. */
    public static RatioOfMedians of(long[] numerator, long[] denominator, long seed) {
        return of(numerator, denominator, seed, DEFAULT_RESAMPLES, DEFAULT_LEVEL);
    }

    /**
     * @param numerator samples in ns, any order, not modified (e.g. the Space's)
     * @param denominator samples in ns, each &gt; 0 (e.g. the bare floor's)
     * @throws IllegalArgumentException if a set is empty, a denominator sample is ≤ 0,
     *     resamples &lt; 1, or level is not strictly between 0 and 1
     */
    public static RatioOfMedians of(long[] numerator, long[] denominator, long seed, int resamples, double level) {
        if (numerator.length == 0 || denominator.length == 0) {
            throw new IllegalArgumentException("both sets need samples, had " + numerator.length + " and " + denominator.length);
        }
        if (Arrays.stream(denominator).anyMatch(s -> s <= 0)) {
            throw new IllegalArgumentException("denominator samples must be positive durations");
        }
        checkBootstrap(resamples, level);
        long[] top = sorted(numerator);
        long[] bottom = sorted(denominator);
        Random random = new Random(seed);
        MedianDraws topMedians = new MedianDraws(top);
        MedianDraws bottomMedians = new MedianDraws(bottom);
        double[] ratios = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            double resampledTop = topMedians.next(random);
            ratios[b] = resampledTop / bottomMedians.next(random);
        }
        Arrays.sort(ratios);
        double tail = 100 * (1 - level) / 2;
        return new RatioOfMedians((double) Percentiles.of(top, 50) / Percentiles.of(bottom, 50),
                ratios[Percentiles.rank(tail, resamples) - 1], ratios[Percentiles.rank(100 - tail, resamples) - 1],
                level, resamples, seed);
    }

    /** @throws IllegalArgumentException if resamples &lt; 1 or level is not strictly between 0 and 1 */
    static void checkBootstrap(int resamples, double level) {
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples must be at least 1, was " + resamples);
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be strictly between 0 and 1, was " + level);
        }
    }

    static long[] sorted(long[] samples) {
        long[] copy = samples.clone();
        Arrays.sort(copy);
        return copy;
    }
}
