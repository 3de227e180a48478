package dev.spacebench.stats;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A published percentile's confidence interval, flattened for storage and export.
 *
 * @param lowerNs the sample at {@code lowerRank}, ns
 * @param upperNs the sample at {@code upperRank}, ns
 * @param lowerRank 1-based rank of the lower end
 * @param upperRank 1-based rank of the upper end
 * @param lowerBounded false when no sample bounds it from below at this level (the percentile may be lower than every sample)
 * @param upperBounded false when no sample bounds it from above (too few samples: it may exceed every sample)
 * @param coverage the achieved confidence, ≥ level
 * @param level the requested confidence, 0.95
 */
public record PercentileInterval(long lowerNs, long upperNs, int lowerRank, int upperRank, boolean lowerBounded,
                                 boolean upperBounded, double coverage, double level) {

    /** The percentiles Spacebench publishes with intervals. */
    public static final double[] PUBLISHED = {50, 95, 99};

    public static PercentileInterval of(OrderStatisticInterval ci) {
        OrderStatisticInterval.Ranks r = ci.ranks();
        return new PercentileInterval(ci.lower(), ci.upper(), r.lowerRank(), r.upperRank(), r.lowerBounded(),
                r.upperBounded(), r.coverage(), r.level());
    }

    /** Whether the upper end is the slowest sample of n: bounded only just, more samples would tighten it. */
    public boolean upperIsSlowest(int n) {
        return upperRank == n;
    }

    /**
     * 95% intervals of p50, p95 and p99 from sorted samples, keyed "p50", "p95", "p99".
     *
     * @param sorted ascending samples in ns, at least one
     */
    public static Map<String, PercentileInterval> published(long[] sorted) {
        Map<String, PercentileInterval> intervals = new LinkedHashMap<>();
        for (double p : PUBLISHED) {
            intervals.put("p" + (int) p, of(OrderStatisticInterval.of(sorted, p)));
        }
        return intervals;
    }
}
