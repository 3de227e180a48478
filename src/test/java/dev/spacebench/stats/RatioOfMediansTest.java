package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RatioOfMediansTest {

    @Test
    void twoValuesGiveTheBootstrapDistributionOfTheirMinimum() {
        // The nearest-rank median of a resample of 2 is its smaller value: 1 with probability
        // 3/4, 3 with 1/4. Both tails of 2.5% fall well inside those masses.
        RatioOfMedians result = RatioOfMedians.of(new long[] {3, 1}, new long[] {1}, 42);

        assertThat(result.ratio()).isEqualTo(1.0);
        assertThat(result.lower()).isEqualTo(1.0);
        assertThat(result.upper()).isEqualTo(3.0);
        assertThat(result.resamples()).isEqualTo(2000);
        assertThat(result.level()).isEqualTo(0.95);
    }

    @Test
    void fiveValuesReachTheirExtremes() {
        // The resampled median is 10 when ≥ 3 of 5 draws hit 10: P = 10·0.2³·0.8² + 5·0.2⁴·0.8 + 0.2⁵
        // = 0.05792 > 0.025, so the lower end is 10/10; by symmetry the upper end is 50/10.
        RatioOfMedians result = RatioOfMedians.of(new long[] {10, 20, 30, 40, 50}, new long[] {10}, 7);

        assertThat(result.ratio()).isEqualTo(3.0);
        assertThat(result.lower()).isEqualTo(1.0);
        assertThat(result.upper()).isEqualTo(5.0);
    }

    @Test
    void constantSetsHaveAPointInterval() {
        RatioOfMedians result = RatioOfMedians.of(new long[] {10, 10, 10}, new long[] {4, 4}, 1);

        assertThat(result.ratio()).isEqualTo(2.5);
        assertThat(result.lower()).isEqualTo(2.5);
        assertThat(result.upper()).isEqualTo(2.5);
    }

    @Test
    void theSeedMakesItReproducible() {
        Random random = new Random(3);
        long[] slow = random.longs(500, 2_000_000, 2_400_000).toArray();
        long[] fast = random.longs(400, 1_000_000, 1_200_000).toArray();

        RatioOfMedians first = RatioOfMedians.of(slow, fast, 99);
        RatioOfMedians again = RatioOfMedians.of(slow, fast, 99);
        RatioOfMedians other = RatioOfMedians.of(slow, fast, 100);

        assertThat(again).isEqualTo(first);
        assertThat(other.seed()).isEqualTo(100);
        assertThat(first.lower()).isLessThan(first.ratio()).isGreaterThan(1.9);
        assertThat(first.upper()).isGreaterThan(first.ratio()).isLessThan(2.1);
    }

    @Test
    void aMillionSamplesASideAllCountAndGiveTheIntervalTheirSpreadImplies() {
        Random random = new Random(5);
        long[] slow = random.longs(1_000_000, 2_000_000, 2_400_000).toArray();
        long[] fast = random.longs(1_000_000, 1_000_000, 1_200_000).toArray();

        RatioOfMedians result = RatioOfMedians.of(slow, fast, 11);

        // A median of n uniform samples over a width w has a standard error of w / (2√n): 200 ns at
        // 2.2 ms and 100 ns at 1.1 ms, 9.09e-5 of each; the ratio 2 then has 2 · √2 · 9.09e-5 =
        // 2.57e-4, and a 95% interval 2 · 1.96 · 2.57e-4 = 0.00101 wide.
        assertThat(result.ratio()).isCloseTo(2.0, within(0.001));
        assertThat(result.lower()).isLessThanOrEqualTo(result.ratio());
        assertThat(result.upper()).isGreaterThanOrEqualTo(result.ratio());
        assertThat(result.upper() - result.lower()).isBetween(0.0008, 0.0012);
    }

    @Test
    void refusesBadInput() {
        assertThatThrownBy(() -> RatioOfMedians.of(new long[0], new long[] {1}, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatioOfMedians.of(new long[] {1}, new long[] {0}, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> RatioOfMedians.of(new long[] {1}, new long[] {1}, 1, 0, 0.95))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatioOfMedians.of(new long[] {1}, new long[] {1}, 1, 100, 1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
