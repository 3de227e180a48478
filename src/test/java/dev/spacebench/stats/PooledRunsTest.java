package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 point 5: the two-level bootstrap of pooled runs, checked by properties that a wrong
 * implementation would break, each expected value worked out by hand in the test's comment.
 */
class PooledRunsTest {

    /** The values start … start + 999, ascending. */
    private static long[] run(long start) {
        return LongStream.range(start, start + 1000).toArray();
    }

    @Test
    void twoOneSampleRunsGiveTheHandCountedDistribution() {
        // Runs {10} and {20}: a replicate draws two runs with replacement, each run's one sample.
        // {10,10} → p50 10, p99 10; {10,20} and {20,10} → p50 10 (rank ⌈0.5·2⌉ = 1), p99 20 (rank 2);
        // {20,20} → 20, 20. So P(p50 = 10) = 3/4 and P(p99 = 20) = 3/4. With 1000 replicates the
        // share's standard deviation is √(0.75·0.25/1000) ≈ 0.014; 0.06 is over four of them.
        List<long[]> runs = List.of(new long[] {10}, new long[] {20});
        long[][] replicates = PooledRuns.replicates(runs, PooledRuns.RESAMPLES, PooledRuns.SEED);
        double p50AtTen = Arrays.stream(replicates[0]).filter(v -> v == 10).count() / 1000.0;
        double p99AtTwenty = Arrays.stream(replicates[1]).filter(v -> v == 20).count() / 1000.0;
        assertThat(p50AtTen).isBetween(0.69, 0.81);
        assertThat(p99AtTwenty).isBetween(0.69, 0.81);
        assertThat(Arrays.stream(replicates[0]).allMatch(v -> v == 10 || v == 20)).isTrue();

        PooledRuns pooled = PooledRuns.of(runs);
        // Pooled {10, 20}: p50 is rank 1, p99 rank 2. Each interval end has 1/4 or more of the
        // replicates beyond it, so both intervals run from 10 to 20.
        assertThat(pooled.runs()).isEqualTo(2);
        assertThat(pooled.p50Ns()).isEqualTo(10);
        assertThat(pooled.p99Ns()).isEqualTo(20);
        assertThat(List.of(pooled.p50LowNs(), pooled.p50HighNs(), pooled.p99LowNs(), pooled.p99HighNs()))
                .containsExactly(10L, 20L, 10L, 20L);
        assertThat(pooled.runP50Ns()).containsExactly(10L, 20L);
        assertThat(pooled.hasInterval()).isTrue();
    }

    @Test
    void identicalRunsLeaveOnlyTheWithinRunIntervalAndRunsShiftedApartWidenItToCoverTheirMedians() {
        // Three copies of 0..999: resampling the runs changes nothing, so the interval is the
        // within-run one of 3000 draws: the median of 3000 draws from a uniform 0..999 has standard
        // deviation ≈ 1000 · 0.5 / √3000 ≈ 9.1, so the 95% interval is about 499.5 ± 18.
        PooledRuns same = PooledRuns.of(List.of(run(0), run(0), run(0)));
        assertThat(same.p50Ns()).isEqualTo(499);
        assertThat(same.p50LowNs()).isBetween(470L, 495L);
        assertThat(same.p50HighNs()).isBetween(504L, 530L);
        assertThat(same.minRunP50Ns()).isEqualTo(same.maxRunP50Ns()).isEqualTo(499);

        // The same three, shifted 1000 apart: run medians 499, 1499, 2499. A replicate that draws
        // one run three times (probability 1/27 each, 3.7% > 2.5%) has its p50 near that run's
        // median, so the 2.5th and 97.5th percentiles of the replicates fall near the lowest and
        // the highest run median: the interval covers the spread between runs.
        PooledRuns apart = PooledRuns.of(List.of(run(0), run(1000), run(2000)));
        assertThat(apart.p50Ns()).isEqualTo(1499);
        assertThat(apart.minRunP50Ns()).isEqualTo(499);
        assertThat(apart.maxRunP50Ns()).isEqualTo(2499);
        assertThat(apart.p50LowNs()).isBetween(440L, 530L);
        assertThat(apart.p50HighNs()).isBetween(2470L, 2560L);
        assertThat(apart.p50HighNs() - apart.p50LowNs()).isGreaterThan(30 * (same.p50HighNs() - same.p50LowNs()));
        // p99 of the pooled 0..2999 is rank 2970 → 2969; a replicate of run 0 alone has p99 near 989.
        assertThat(apart.p99Ns()).isEqualTo(2969);
        assertThat(apart.p99LowNs()).isLessThan(1000);
    }

    @Test
    void oneRunIsItsOwnFiguresWithNoInterval() {
        PooledRuns one = PooledRuns.of(List.of(run(100)));
        // 100..1099: p50 rank 500 → 599, p99 rank 990 → 1089.
        assertThat(one.hasInterval()).isFalse();
        assertThat(one.runs()).isEqualTo(1);
        assertThat(List.of(one.p50Ns(), one.p50LowNs(), one.p50HighNs())).containsOnly(599L);
        assertThat(List.of(one.p99Ns(), one.p99LowNs(), one.p99HighNs())).containsOnly(1089L);
    }

    @Test
    void theSameRunsGiveTheSameFiguresEveryTime() {
        List<long[]> runs = List.of(run(0), run(37), run(500));
        assertThat(PooledRuns.of(runs)).isEqualTo(PooledRuns.of(runs));
    }

    @Test
    void thinningKeepsTheMiddleOfEachEqualSlice() {
        // A million samples 0 … 999 999 in 2000 slices of 500: slice j's middle is rank 500j + 250.
        long[] thinned = PooledRuns.thin(LongStream.range(0, 1_000_000).toArray(), 2000);
        assertThat(thinned).hasSize(2000);
        assertThat(thinned[0]).isEqualTo(250);
        assertThat(thinned[1]).isEqualTo(750);
        assertThat(thinned[1999]).isEqualTo(999_750);
        long[] few = {1, 2, 3};
        assertThat(PooledRuns.thin(few, 2000)).containsExactly(1, 2, 3).isNotSameAs(few);
    }

    @Test
    void badRunsAreRefusedByName() {
        assertThatThrownBy(() -> PooledRuns.of(List.of())).hasMessageContaining("runs");
        assertThatThrownBy(() -> PooledRuns.of(List.of(new long[0], run(0)))).hasMessageContaining("runs[0]");
        assertThatThrownBy(() -> PooledRuns.of(List.of(run(0), LongStream.range(0, 2001).toArray()))).hasMessageContaining("runs[1]");
        assertThatThrownBy(() -> PooledRuns.of(List.of(new long[] {3, 1}, run(0)))).hasMessageContaining("sorted");
    }
}
