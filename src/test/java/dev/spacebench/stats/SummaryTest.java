package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void figuresByHand() {
        // sorted: 1 2 3 4 5 6 7 8 9 100; mean = 145/10 = 14.5
        // squares: Σ(x−14.5)² = 872.25 (for 1..9) + 7310.25 (for 100) = 8182.5 → stddev = √(8182.5/9) = 30.1524…
        long[] samples = {9, 3, 100, 1, 7, 5, 2, 8, 4, 6};
        Summary s = Summary.of(samples);
        assertThat(s.n()).isEqualTo(10);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.p50()).isEqualTo(5);   // rank ⌈5⌉ = 5
        assertThat(s.p95()).isEqualTo(100); // rank ⌈9.5⌉ = 10
        assertThat(s.p99()).isEqualTo(100);
        assertThat(s.max()).isEqualTo(100);
        assertThat(s.mean()).isEqualTo(14.5);
        assertThat(s.stddev()).isCloseTo(30.15238, within(1e-4));
        assertThat(samples[0]).as("input not modified").isEqualTo(9);
    }

    @Test
    void fromSortedSamplesTheSameFiguresAndOutOfOrderIsRefused() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 100};
        Summary s = Summary.ofSorted(sorted);
        assertThat(s.p50()).isEqualTo(5);
        assertThat(s.p95()).isEqualTo(100);
        assertThat(s.mean()).isEqualTo(14.5);
        assertThat(s.stddev()).isCloseTo(30.15238, within(1e-4));
        assertThatThrownBy(() -> Summary.ofSorted(new long[] {1, 3, 2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samples must be in ascending order: sample 2 (2 ns) is below the one before it (3 ns)");
        assertThatThrownBy(() -> Summary.ofSorted(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneSampleHasNoSpread() {
        Summary s = Summary.of(new long[] {42});
        assertThat(s.p99()).isEqualTo(42);
        assertThat(s.stddev()).isZero();
    }

    @Test
    void throughputByHand() {
        // 100 MiB in 0.5 s = 200 MiB/s
        assertThat(Throughput.mibPerSecond(100L << 20, 500_000_000L)).isEqualTo(200.0);
    }
}
