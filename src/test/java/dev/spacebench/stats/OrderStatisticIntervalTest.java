package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.spacebench.stats.OrderStatisticInterval.Ranks;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrderStatisticIntervalTest {

    @Test
    void medianOfTwentyIsSixthToFifteenth() {
        Ranks ranks = OrderStatisticInterval.ranks(50, 20);

        assertThat(ranks.lowerRank()).isEqualTo(6);
        assertThat(ranks.upperRank()).isEqualTo(15);
        assertThat(ranks.lowerBounded()).isTrue();
        assertThat(ranks.upperBounded()).isTrue();
        // P(6 ≤ B ≤ 14), B ~ Bin(20, 1/2) = 1 − 2·(1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20
        assertThat(ranks.coverage()).isCloseTo(1 - 2 * 21700.0 / (1 << 20), within(1e-12));
    }

    @Test
    void mirrorImageTieTakesTheLowerPair() {
        // n = 8: (1,7) and (2,8) both cover 246/256 with width 6; rule 4 takes l = 1.
        Ranks ranks = OrderStatisticInterval.ranks(50, 8);

        assertThat(ranks.lowerRank()).isEqualTo(1);
        assertThat(ranks.upperRank()).isEqualTo(7);
        assertThat(ranks.coverage()).isCloseTo(246.0 / 256, within(1e-12));
    }

    @Test
    void p95OfTwentyIsOpenAbove() {
        Ranks ranks = OrderStatisticInterval.ranks(95, 20);

        assertThat(ranks.upperBounded()).isFalse();
        assertThat(ranks.upperRank()).isEqualTo(20);
        assertThat(ranks.lowerBounded()).isTrue();
        assertThat(ranks.lowerRank()).isEqualTo(17);
        // P(B ≥ 17) = P(at most 3 of 20 samples above the p95) with the miss rate 0.05
        assertThat(ranks.coverage()).isCloseTo(binomialSum(20, 0.05, 0, 3), within(1e-12));
    }

    @Test
    void p99OfThreeHundredIsBoundedByTheSlowestSample() {
        Ranks ranks = OrderStatisticInterval.ranks(99, 300);

        assertThat(ranks.lowerRank()).isEqualTo(290);
        assertThat(ranks.upperRank()).isEqualTo(300);
        assertThat(ranks.upperBounded()).isTrue();
        // 290 ≤ B ≤ 299: between 1 and 10 samples above the p99
        assertThat(ranks.coverage()).isCloseTo(binomialSum(300, 0.01, 1, 10), within(1e-12));
    }

    @Test
    void p99OfTwoHundredNinetyEightHasNoUpperBound() {
        // The best bounded pair could cover at most 1 − 0.99^298 − 0.01^298 ≈ 0.94997.
        Ranks ranks = OrderStatisticInterval.ranks(99, 298);

        assertThat(ranks.upperBounded()).isFalse();
        assertThat(ranks.upperRank()).isEqualTo(298);
        assertThat(ranks.lowerRank()).isEqualTo(292);
        assertThat(ranks.coverage()).isCloseTo(binomialSum(298, 0.01, 0, 6), within(1e-12));
        assertThat(OrderStatisticInterval.ranks(99, 299).upperBounded()).isTrue();
    }

    @Test
    void oneSampleIsOpenBothWays() {
        Ranks ranks = OrderStatisticInterval.ranks(50, 1);

        assertThat(ranks.lowerBounded()).isFalse();
        assertThat(ranks.upperBounded()).isFalse();
        assertThat(ranks.lowerRank()).isEqualTo(1);
        assertThat(ranks.upperRank()).isEqualTo(1);
        assertThat(ranks.coverage()).isEqualTo(1.0);
    }

    /** The table in the class comment; the same figures come from src/test/python/order_statistic_interval.py. */
    @ParameterizedTest
    @CsvSource({
        "20, 50, 6, 15, true, 0.9586105346679688",
        "20, 95, 17, 20, false, 0.9840984739802364",
        "20, 99, 19, 20, false, 0.9831406623643482",
        "300, 50, 133, 167, true, 0.9501529247342438",
        "300, 95, 278, 293, true, 0.9548491407306194",
        "300, 99, 290, 300, true, 0.950694262223382",
        "1000, 50, 469, 531, true, 0.9500154764972458",
        "1000, 95, 937, 964, true, 0.9504167703041977",
        "1000, 99, 984, 997, true, 0.9635363098183776",
    })
    void publishedTable(int n, double p, int lower, int upper, boolean upperBounded, double coverage) {
        Ranks ranks = OrderStatisticInterval.ranks(p, n);

        assertThat(ranks.lowerRank()).isEqualTo(lower);
        assertThat(ranks.upperRank()).isEqualTo(upper);
        assertThat(ranks.lowerBounded()).isTrue();
        assertThat(ranks.upperBounded()).isEqualTo(upperBounded);
        assertThat(ranks.coverage()).isCloseTo(coverage, within(1e-9)).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void onePassAgreesWithBruteForceOverAllPairs() {
        for (int n = 1; n <= 60; n++) {
            for (double p : new double[] {1, 10, 25, 50, 75, 90, 95, 99}) {
                Ranks ranks = OrderStatisticInterval.ranks(p, n, 0.9);
                int[] expected = bruteForce(p, n, 0.9);
                assertThat(new int[] {ranks.lowerBounded() ? ranks.lowerRank() : 0,
                        ranks.upperBounded() ? ranks.upperRank() : n + 1})
                        .as("p%s of n=%d", p, n).containsExactly(expected);
            }
        }
    }

    @Test
    void intervalCarriesTheSampleValues() {
        long[] sorted = IntStream.rangeClosed(1, 20).mapToLong(i -> i * 1000L).toArray();

        OrderStatisticInterval interval = OrderStatisticInterval.of(sorted, 50);

        assertThat(interval.lower()).isEqualTo(6000);
        assertThat(interval.upper()).isEqualTo(15000);
        assertThat(OrderStatisticInterval.of(sorted, 95).upper()).as("open above: the slowest sample").isEqualTo(20000);
    }

    @Test
    void refusesWhatItCannotAnswer() {
        assertThatThrownBy(() -> OrderStatisticInterval.ranks(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.ranks(100, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.ranks(Double.NaN, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.ranks(50, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.ranks(50, 10, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.of(new long[0], 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.of(new long[] {2, 1}, 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sorted");
    }

    /** Σ C(n,k) q^k (1−q)^(n−k) for k = from..to, multiplied out term by term. */
    private static double binomialSum(int n, double q, int from, int to) {
        double sum = 0;
        for (int k = from; k <= to; k++) {
            double term = Math.pow(1 - q, n - k) * Math.pow(q, k);
            for (int i = 1; i <= k; i++) {
                term *= (double) (n - k + i) / i;
            }
            sum += term;
        }
        return sum;
    }

    /** Every pair, sorted by the four rules of the class comment; {l, u} with 0 and n+1 as open ends. */
    private static int[] bruteForce(double p, int n, double level) {
        BinomialDistribution binomial = new BinomialDistribution(null, n, p / 100);
        record Pair(int l, int u, int open, double coverage) {}
        Comparator<Pair> rules = Comparator.<Pair>comparingInt(Pair::open)
                .thenComparingInt(pair -> pair.u() - pair.l())
                .thenComparing((a, b) -> Math.abs(a.coverage() - b.coverage()) <= OrderStatisticInterval.COVERAGE_TIE
                        ? 0 : Double.compare(b.coverage(), a.coverage()))
                .thenComparingInt(Pair::l);
        Pair best = null;
        for (int l = 0; l <= n; l++) {
            for (int u = l + 1; u <= n + 1; u++) {
                double upper = u == n + 1 ? 1 : binomial.cumulativeProbability(u - 1);
                double lower = l == 0 ? 0 : binomial.cumulativeProbability(l - 1);
                if (upper - lower < level) {
                    continue;
                }
                Pair pair = new Pair(l, u, (l == 0 ? 1 : 0) + (u == n + 1 ? 1 : 0), upper - lower);
                if (best == null || rules.compare(pair, best) < 0) {
                    best = pair;
                }
            }
        }
        return new int[] {best.l(), best.u()};
    }
}
