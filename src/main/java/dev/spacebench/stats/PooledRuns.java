package dev.spacebench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One metric's p50 and p99 pooled over several runs of the same plan, with 95% intervals that
 * include the variation from run to run, not only the sampling within a run.
 *
 * <p>Method: the two-level (hierarchical) bootstrap, resampling the top level then the bottom
 * (Davison &amp; Hinkley, <i>Bootstrap Methods and their Application</i>, 1997, §3.8, "Strategy 1"
 * for two-stage data; Ren, Lai, Hu et al. 2010, "Nonparametric bootstrapping for hierarchical
 * data", J. Appl. Statist. 37(9), 1487–1498, who show that resampling at the top level with
 * replacement and within the chosen units with replacement gives the best variance estimate). One
 * replicate draws k runs from the k with replacement, then from each drawn run as many samples as
 * it holds, with replacement; the replicate's figure is the nearest-rank percentile
 * ({@link Percentiles}) of all the samples drawn together. The interval is the 2.5th and 97.5th
 * nearest-rank percentiles of {@link #RESAMPLES} replicates (the percentile interval, Davison
 * &amp; Hinkley §5.3.1), drawn from a {@link SplittableRandom} seeded with {@link #SEED}: the same
 * runs give the same interval, so a page shows the same figures each time it is made.
 *
 * <p>Memory and time are bounded: each run enters as at most {@link #PER_RUN} of its samples,
 * {@link #thin thinned} deterministically to the values at the middles of PER_RUN equal slices of
 * its sorted samples (its empirical distribution, to within 1/PER_RUN in probability). A run of more
 * samples thus weighs as much as one of exactly PER_RUN, and the within-run resampling varies as for
 * a PER_RUN-sample run: for larger runs the interval is, if anything, wider than the full samples
 * would give. The point figures are the percentiles of the pooled thinned samples (not resampled).
 *
 * @param runs k, the runs pooled
 * @param p50Ns pooled p50 in ns
 * @param p99Ns pooled p99 in ns
 * @param p50LowNs lower end of p50's 95% interval in ns; equals p50Ns when k = 1 (no interval)
 * @param p50HighNs upper end of p50's 95% interval in ns; equals p50Ns when k = 1
 * @param p99LowNs lower end of p99's 95% interval in ns; equals p99Ns when k = 1
 * @param p99HighNs upper end of p99's 95% interval in ns; equals p99Ns when k = 1
 * @param runP50Ns each run's own p50 in ns (of its thinned samples), in the order given
 */
public record PooledRuns(int runs, long p50Ns, long p99Ns, long p50LowNs, long p50HighNs, long p99LowNs, long p99HighNs,
                         List<Long> runP50Ns) {

    /** Bootstrap replicates per interval. */
    public static final int RESAMPLES = 1000;
    /** The replicates' random seed. */
    public static final long SEED = 29;
    /** At most this many samples of a run enter the pool ({@link #thin}). */
    public static final int PER_RUN = 2000;
    /** What a page names as the method. */
    public static final String METHOD = "two-level bootstrap (runs, then samples within each run; Davison & Hinkley 1997, "
            + "section 3.8; Ren et al. 2010), " + RESAMPLES + " resamples, seed " + SEED + ", at most " + PER_RUN
            + " samples a run";

    /** Whether there is an interval: more than one run. A single run's figures are its own, with no interval. */
    public boolean hasInterval() {
        return runs > 1;
    }

    /** The smallest run p50 in ns. */
    public long minRunP50Ns() {
        return runP50Ns.stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    /** The largest run p50 in ns. */
    public long maxRunP50Ns() {
        return runP50Ns.stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    /**
     * At most {@code cap} of a run's samples, spread over its distribution: the value at rank
     * ⌊(2j + 1)·n / (2·cap)⌋ (0-based) for j = 0 … cap − 1, the middle of each of cap equal slices.
     *
     * @param sorted samples in ns, ascending
     * @param cap at least 1
     * @return a new array, ascending; all the samples when there are at most cap
     */
    public static long[] thin(long[] sorted, int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be at least 1, was " + cap);
        }
        int n = sorted.length;
        if (n <= cap) {
            return sorted.clone();
        }
        long[] out = new long[cap];
        for (int j = 0; j < cap; j++) {
            out[j] = sorted[(int) ((2L * j + 1) * n / (2L * cap))];
        }
        return out;
    }

    /**
     * Pools runs with the defaults ({@link #RESAMPLES}, {@link #SEED}).
     *
     * @param sortedRuns each run's samples in ns, ascending, at most {@link #PER_RUN} each (see {@link #thin}); at least one run
     * @throws IllegalArgumentException if there is no run, a run is empty or not ascending, or larger than PER_RUN
     */
    public static PooledRuns of(List<long[]> sortedRuns) {
        return of(sortedRuns, RESAMPLES, SEED);
    }

    static PooledRuns of(List<long[]> sortedRuns, int resamples, long seed) {
        long[][] replicates = replicates(sortedRuns, resamples, seed);
        long[] pooled = pooled(sortedRuns);
        List<Long> runP50 = sortedRuns.stream().map(run -> Percentiles.of(run, 50)).toList();
        long p50 = Percentiles.of(pooled, 50);
        long p99 = Percentiles.of(pooled, 99);
        if (replicates == null) {
            return new PooledRuns(1, p50, p99, p50, p50, p99, p99, runP50);
        }
        long[] r50 = replicates[0];
        long[] r99 = replicates[1];
        Arrays.sort(r50);
        Arrays.sort(r99);
        return new PooledRuns(sortedRuns.size(), p50, p99, Percentiles.of(r50, 2.5), Percentiles.of(r50, 97.5),
                Percentiles.of(r99, 2.5), Percentiles.of(r99, 97.5), runP50);
    }

    /**
     * The replicates' p50s and p99s in ns, in the order drawn; null for a single run.
     *
     * <p>Every sample of every run has a rank in the pooled, sorted whole; a replicate counts how
     * often each rank was drawn and walks the counts up to the two percentiles' ranks, so it costs
     * O(total samples) and sorts nothing.
     */
    static long[][] replicates(List<long[]> sortedRuns, int resamples, long seed) {
        check(sortedRuns);
        int k = sortedRuns.size();
        if (k == 1) {
            return null;
        }
        int[] offset = new int[k + 1];
        for (int r = 0; r < k; r++) {
            offset[r + 1] = offset[r] + sortedRuns.get(r).length;
        }
        int total = offset[k];
        long[] values = new long[total];
        for (int r = 0; r < k; r++) {
            System.arraycopy(sortedRuns.get(r), 0, values, offset[r], sortedRuns.get(r).length);
        }
        Integer[] order = new Integer[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(values[a], values[b]));
        int[] rankOf = new int[total];
        long[] byRank = new long[total];
        for (int position = 0; position < total; position++) {
            rankOf[order[position]] = position;
            byRank[position] = values[order[position]];
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] counts = new int[total];
        long[] p50 = new long[resamples];
        long[] p99 = new long[resamples];
        for (int b = 0; b < resamples; b++) {
            Arrays.fill(counts, 0);
            int drawn = 0;
            for (int pick = 0; pick < k; pick++) {
                int r = random.nextInt(k);
                int n = offset[r + 1] - offset[r];
                for (int s = 0; s < n; s++) {
                    counts[rankOf[offset[r] + random.nextInt(n)]]++;
                }
                drawn += n;
            }
            int rank50 = Percentiles.rank(50, drawn);
            int rank99 = Percentiles.rank(99, drawn);
            int seen = 0;
            boolean found50 = false;
            for (int position = 0; position < total; position++) {
                seen += counts[position];
                if (!found50 && seen >= rank50) {
                    p50[b] = byRank[position];
                    found50 = true;
                }
                if (seen >= rank99) {
                    p99[b] = byRank[position];
                    break;
                }
            }
        }
        return new long[][] {p50, p99};
    }

    private static void check(List<long[]> sortedRuns) {
        if (sortedRuns.isEmpty()) {
            throw new IllegalArgumentException("runs: at least one run is needed, there were none");
        }
        for (int r = 0; r < sortedRuns.size(); r++) {
            long[] run = sortedRuns.get(r);
            if (run.length == 0 || run.length > PER_RUN) {
                throw new IllegalArgumentException("runs[" + r + "] must hold 1 to " + PER_RUN + " samples (thin it first), held "
                        + run.length);
            }
            Percentiles.requireSorted(run);
        }
    }

    private static long[] pooled(List<long[]> sortedRuns) {
        List<Long> all = new ArrayList<>();
        sortedRuns.forEach(run -> Arrays.stream(run).forEach(all::add));
        return all.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
