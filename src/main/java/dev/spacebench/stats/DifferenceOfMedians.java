package dev.spacebench.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * How much one set of samples lies above the sum of others, by medians: median(measured) − Σ
 * median(floor part), in ns, with a percentile-bootstrap confidence interval (Efron &amp; Tibshirani,
 * <i>An Introduction to the Bootstrap</i>, 1993, ch. 13), as {@link RatioOfMedians} does for a
 * ratio. This is what a page says a Space and the harness added above the floor (a round trip
 * against, e.g., {@code hyperfine -N true} plus a bare gRPC ping, each measured on its own).
 *
 * <p>Medians are nearest-rank p50s ({@link Percentiles}). Each of B replicates resamples every set
 * with replacement at its own size and takes the difference of the resampled medians; the
 * interval's ends are the nearest-rank α/2 and 1 − α/2 percentiles of the B differences. A
 * resample's median is drawn from its exact distribution ({@link MedianDraws}). Draws come from
 * {@code java.util.Random(seed)}: per replicate one {@code nextDouble()} for the measured set's
 * median, then one per floor part, in order, so a seed gives the same interval on every JVM.
 *
 * @param differenceNs median(measured) − Σ median(part) of the samples themselves, ns (negative:
 *     the measured median came out below the floor)
 * @param lowerNs lower end of the interval, ns
 * @param upperNs upper end of the interval, ns
 * @param level confidence level, e.g. 0.95
 * @param resamples B
 * @param seed the seed the replicates were drawn with
 */
public record DifferenceOfMedians(long differenceNs, long lowerNs, long upperNs, double level, int resamples, long seed) {

    /** Whether the interval holds zero: the data cannot tell the difference from none. */
    public boolean includesZero() {
        return lowerNs <= 0 && upperNs >= 0;
    }

    /** 95% with B = 2000; see {@link #of(long[], List, long, int, double)}. */
    public static DifferenceOfMedians of(long[] measured, List<long[]> floorParts, long seed) {
        return of(measured, floorParts, seed, RatioOfMedians.DEFAULT_RESAMPLES, RatioOfMedians.DEFAULT_LEVEL);
    }

    /**
     * @param measured samples in ns, any order, not modified (e.g. a Space's round trips)
     * @param floorParts the floor's parts, each samples in ns, any order, not modified; their
     *     medians add up to the floor (e.g. hyperfine's and the bare ping's)
     * @throws IllegalArgumentException if any set is empty, there is no floor part, resamples &lt; 1,
     *     or level is not strictly between 0 and 1
     */
    public static DifferenceOfMedians of(long[] measured, List<long[]> floorParts, long seed, int resamples, double level) {
        if (measured.length == 0 || floorParts.isEmpty() || floorParts.stream().anyMatch(p -> p.length == 0)) {
            throw new IllegalArgumentException("the measured set and every floor part need samples");
        }
        RatioOfMedians.checkBootstrap(resamples, level);
        long[] top = RatioOfMedians.sorted(measured);
        List<long[]> parts = floorParts.stream().map(RatioOfMedians::sorted).toList();
        MedianDraws topMedians = new MedianDraws(top);
        List<MedianDraws> partMedians = parts.stream().map(MedianDraws::new).toList();
        Random random = new Random(seed);
        long[] differences = new long[resamples];
        for (int b = 0; b < resamples; b++) {
            long difference = topMedians.next(random);
            for (MedianDraws part : partMedians) {
                difference -= part.next(random);
            }
            differences[b] = difference;
        }
        Arrays.sort(differences);
        double tail = 100 * (1 - level) / 2;
        long difference = Percentiles.of(top, 50);
        for (long[] part : parts) {
            difference -= Percentiles.of(part, 50);
        }
        return new DifferenceOfMedians(difference, differences[Percentiles.rank(tail, resamples) - 1],
                differences[Percentiles.rank(100 - tail, resamples) - 1], level, resamples, seed);
    }
}
