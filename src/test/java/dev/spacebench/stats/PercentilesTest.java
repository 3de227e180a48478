package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void nearestRankByHand() {
        // ⌈0.50·300⌉ = 150, ⌈0.95·300⌉ = 285, ⌈0.99·300⌉ = 297
        assertThat(Percentiles.rank(50, 300)).isEqualTo(150);
        assertThat(Percentiles.rank(95, 300)).isEqualTo(285);
        assertThat(Percentiles.rank(99, 300)).isEqualTo(297);
        // ⌈0.50·5⌉ = 3 (2.5 rounds up), ⌈0.95·20⌉ = 19, ⌈0.99·20⌉ = 20 (19.8 → 20)
        assertThat(Percentiles.rank(50, 5)).isEqualTo(3);
        assertThat(Percentiles.rank(95, 20)).isEqualTo(19);
        assertThat(Percentiles.rank(99, 20)).isEqualTo(20);
        assertThat(Percentiles.rank(0, 7)).isEqualTo(1);
        assertThat(Percentiles.rank(100, 7)).isEqualTo(7);
        assertThat(Percentiles.rank(50, 1)).isEqualTo(1);
    }

    @Test
    void valueIsAMeasuredSample() {
        long[] sorted = {10, 20, 30, 40};
        // ⌈0.5·4⌉ = 2 → 20, not the interpolated 25
        assertThat(Percentiles.of(sorted, 50)).isEqualTo(20);
        assertThat(Percentiles.of(sorted, 75)).isEqualTo(30);
        assertThat(Percentiles.of(sorted, 76)).isEqualTo(40);
    }

    @Test
    void rejectsOutOfRange() {
        assertThatThrownBy(() -> Percentiles.rank(101, 10)).hasMessageContaining("p must be from 0 to 100");
        assertThatThrownBy(() -> Percentiles.rank(50, 0)).hasMessageContaining("n must be at least 1");
    }
}
