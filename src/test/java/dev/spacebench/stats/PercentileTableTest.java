package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The percentile plot's points, stored: nearest-rank values worked out by hand. */
class PercentileTableTest {

    /** 1 µs, 2 µs, …, n µs. */
    private static long[] microseconds(int n) {
        long[] ns = new long[n];
        for (int i = 0; i < n; i++) {
            ns[i] = (i + 1) * 1000L;
        }
        return ns;
    }

    @Test
    void holdsTheNearestRankValueAtEachPoint() {
        PercentileTable table = PercentileTable.of(microseconds(1000));
        assertThat(PercentileTable.GRID).hasSize(37).startsWith(0, 1000, 2000).endsWith(9998, 9999);
        // Rank ⌈p/100 · 1000⌉: p0 → 1, p50 → 500, p99 → 990, p99.9 → 999, p99.99 → ⌈999.9⌉ = 1000.
        assertThat(table.at(0)).isEqualTo(1000);
        assertThat(table.at(50)).isEqualTo(500_000);
        assertThat(table.at(99)).isEqualTo(990_000);
        assertThat(table.at(99.9)).isEqualTo(999_000);
        assertThat(table.at(99.99)).isEqualTo(1_000_000);
        assertThat(table.max()).isEqualTo(1_000_000);
        assertThat(table.n()).isEqualTo(1000);
        // p ≤ 1 − 1/1000 = 99.9%: 0, 10…90 (10 points), 91…99 (9), 99.1…99.9 (9).
        assertThat(table.resolved()).isEqualTo(28);
        assertThat(PercentileTable.of(microseconds(1)).resolved()).isEqualTo(1);
        assertThat(PercentileTable.of(microseconds(10_000)).resolved()).isEqualTo(37);
    }

    @Test
    void survivesTheDatabase() {
        PercentileTable table = PercentileTable.of(new long[] {5, 7, 7, 9_000_000_000L});
        String stored = table.encode();
        assertThat(stored).startsWith("4;9000000000;5,");
        assertThat(PercentileTable.decode(stored)).isEqualTo(table);
        assertThatThrownBy(() -> PercentileTable.decode("4;9;1,2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PercentileTable.of(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
