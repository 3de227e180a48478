package dev.spacebench.publish;

import dev.spacebench.metric.Metric;
import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.PercentileInterval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;

/**
 * Whether an interleaved run's host stayed steady (issue 29, point 4): per series, its block medians against the
 * block index (the order the rounds ran in, so time), tested for a monotonic trend.
 *
 * <p>The test, per series of k ≥ {@value #MIN_BLOCKS} blocks: Spearman's rank correlation ρ of block median against
 * block index (Spearman 1904; ties take average ranks), with the two-sided p-value of t = ρ·√((k − 2)/(1 − ρ²)) on
 * Student's t with k − 2 degrees of freedom (Hollander, Wolfe &amp; Chicken 2014, §8.6; the p-value
 * {@code scipy.stats.spearmanr} gives), Bonferroni-corrected over the m series tested: a trend when p &lt; 0.05 / m.
 * The move's size is the Theil–Sen slope (the median of the pairwise slopes (y<sub>j</sub> − y<sub>i</sub>)/(j − i),
 * i &lt; j; Theil 1950, Sen 1968; {@code scipy.stats.theilslopes}) times the blocks spanned, in ns and as a
 * percentage of the median of the block medians. The page flags a series (a caveat) when it trends and its move is
 * wider than the 95% interval of its own p50 (the run's own CI for that series): the blocks moved more than the run's
 * sampling error says a steady host would let them.
 *
 * @param series every series with enough blocks, in the order given
 * @param threshold the p-value below which a series trends, 0.05 / m
 */
public record Drift(List<Series> series, double threshold) {

    /** Fewer blocks than this are not tested: a trend could not reach p &lt; 0.05 at all below 5. */
    public static final int MIN_BLOCKS = 6;
    /** The family-wise level. */
    public static final double ALPHA = 0.05;
    static final int THEIL_SEN_MAX = 1000;
    public static final String METHOD = "Spearman's rho of block median against block index, two-sided t-approximation p-value, "
            + "Bonferroni over the series tested; move = Theil-Sen slope x blocks spanned; flagged when p < 0.05/m and the move "
            + "exceeds the width of the series' own p50 95% interval";

    /**
     * @param metric the series' id; {@code label} its page name
     * @param blocks block numbers, ascending; {@code medians} the block medians, ns, in the same order
     * @param rho Spearman's ρ; {@code p} its two-sided p-value
     * @param slopeNs Theil–Sen slope, ns per block
     * @param moveNs slope × (last block − first block)
     * @param movePercent moveNs as a percentage of the median of the block medians
     * @param p50Ci width of the series' p50 95% interval, ns; null when the run stored none
     * @param flagged trend and move wider than that interval
     */
    public record Series(String metric, String label, List<Integer> blocks, List<Long> medians, double rho, double p, double slopeNs,
                         long moveNs, double movePercent, Long p50Ci, boolean flagged) {

        /** "+18.2%" or "−4.10%", three significant digits. */
        public String moveText() {
            return (movePercent < 0 ? "−" : "+") + Format.significant(Math.abs(movePercent)) + "%";
        }

        public String moveNsText() {
            return Format.signedDuration(moveNs);
        }

        public String pText() {
            return p < 1e-4 ? "< 0.0001" : Format.significant(p);
        }

        public String rhoText() {
            return String.format(java.util.Locale.ROOT, "%.2f", rho);
        }

        public String p50CiText() {
            return p50Ci == null ? null : Format.duration(p50Ci);
        }
    }

    public List<Series> flagged() {
        return series.stream().filter(Series::flagged).toList();
    }

    public boolean isEmpty() {
        return series.isEmpty();
    }

    public String thresholdText() {
        return Format.significant(threshold);
    }

    /**
     * @param blocks metric → (block → median ns), as {@code run.samples.BlockMedians} reads them
     * @param results the run's figures, for each series' p50 interval
     */
    public static Drift of(Map<String, SortedMap<Integer, Long>> blocks, List<MetricResult> results) {
        List<Map.Entry<String, SortedMap<Integer, Long>>> tested = blocks.entrySet().stream()
                .filter(e -> e.getValue().size() >= MIN_BLOCKS).toList();
        double threshold = tested.isEmpty() ? ALPHA : ALPHA / tested.size();
        List<Series> series = new ArrayList<>();
        for (Map.Entry<String, SortedMap<Integer, Long>> e : tested) {
            List<Integer> at = List.copyOf(e.getValue().keySet());
            List<Long> medians = List.copyOf(e.getValue().values());
            double[] x = at.stream().mapToDouble(Integer::doubleValue).toArray();
            double[] y = medians.stream().mapToDouble(Long::doubleValue).toArray();
            double rho = spearman(x, y);
            double p = pValue(rho, x.length);
            double slope = theilSen(x, y);
            long move = Math.round(slope * (x[x.length - 1] - x[0]));
            double middle = median(y);
            double percent = middle == 0 ? 0 : 100.0 * move / middle;
            Long ci = RunReportBuilder.find(results, e.getKey()).map(r -> r.getIntervals().get("p50"))
                    .filter(i -> i.lowerBounded() && i.upperBounded())
                    .map((PercentileInterval i) -> i.upperNs() - i.lowerNs()).orElse(null);
            boolean flagged = p < threshold && ci != null && Math.abs(move) > ci;
            String label = Metric.parse(e.getKey()).map(Metric::label).orElse(e.getKey());
            series.add(new Series(e.getKey(), label, at, medians, rho, p, slope, move, percent, ci, flagged));
        }
        return new Drift(List.copyOf(series), threshold);
    }

    /** Spearman's ρ with average ranks for ties; 0 when either side is constant (no trend to see). */
    static double spearman(double[] x, double[] y) {
        if (Arrays.stream(y).distinct().count() < 2 || Arrays.stream(x).distinct().count() < 2) {
            return 0;
        }
        return new SpearmansCorrelation().correlation(x, y);
    }

    /** Two-sided p of ρ on k pairs by the t-approximation (as scipy.stats.spearmanr); 0 at |ρ| = 1. */
    static double pValue(double rho, int k) {
        if (Math.abs(rho) >= 1) {
            return 0;
        }
        double t = rho * Math.sqrt((k - 2) / ((1 - rho) * (1 + rho)));
        return 2 * new TDistribution(null, k - 2).cumulativeProbability(-Math.abs(t));
    }

    /**
     * The median of the pairwise slopes (y[j] − y[i]) / (x[j] − x[i]), i &lt; j, x[i] ≠ x[j]. Above
     * {@value #THEIL_SEN_MAX} points (a million-sample series in blocks of 10) the points are first cut into that many
     * runs of consecutive blocks, each the median of its x and of its y: the slope stays robust, the work O(max²).
     */
    static double theilSen(double[] x, double[] y) {
        if (x.length > THEIL_SEN_MAX) {
            double[] bx = new double[THEIL_SEN_MAX];
            double[] by = new double[THEIL_SEN_MAX];
            for (int b = 0; b < THEIL_SEN_MAX; b++) {
                int from = (int) ((long) b * x.length / THEIL_SEN_MAX);
                int to = (int) ((long) (b + 1) * x.length / THEIL_SEN_MAX);
                bx[b] = median(Arrays.copyOfRange(x, from, to));
                by[b] = median(Arrays.copyOfRange(y, from, to));
            }
            return theilSen(bx, by);
        }
        double[] slopes = new double[x.length * (x.length - 1) / 2];
        int n = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                if (x[j] != x[i]) {
                    slopes[n++] = (y[j] - y[i]) / (x[j] - x[i]);
                }
            }
        }
        return median(Arrays.copyOf(slopes, n));
    }

    /** The middle value, or the mean of the two middle ones. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
