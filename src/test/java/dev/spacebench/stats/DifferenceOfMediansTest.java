package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The difference of medians and its bootstrap interval, on samples whose bootstrap distribution the test works out
 * itself: two plateaus make a resampled median take one of two values, with a probability the test sums from the
 * binomial law, so the interval's ends are known exactly; and, on spread samples, a plain bootstrap written here
 * (resamples built and sorted) lands where the production one does.
 */
class DifferenceOfMediansTest {

    /** {@code low} copies of a, then {@code high} copies of b. */
    static long[] plateaus(int low, long a, int high, long b) {
        return LongStream.concat(LongStream.generate(() -> a).limit(low), LongStream.generate(() -> b).limit(high)).toArray();
    }

    /** P(Binomial(n, p) ≥ k), summed term by term in log space. */
    static double atLeast(int n, double p, int k) {
        double sum = 0;
        for (int i = k; i <= n; i++) {
            double logChoose = 0;
            for (int j = 1; j <= i; j++) {
                logChoose += Math.log(n - i + j) - Math.log(j);
            }
            sum += Math.exp(logChoose + i * Math.log(p) + (n - i) * Math.log(1 - p));
        }
        return sum;
    }

    @Test
    void plateausGiveTheIntervalTheBinomialLawPredicts() {
        // 101 samples: 50 at 2.4 ms, 51 at 2.6 ms. The nearest-rank median is the 51st: 2.6 ms. A resample's median
        // is 2.4 ms exactly when at least 51 of its 101 draws land among the 50 low ones.
        long[] space = plateaus(50, 2_400_000, 51, 2_600_000);
        long[] hyperfine = plateaus(50, 1_000_000, 51, 1_200_000);
        long[] ping = plateaus(0, 0, 101, 200_000);
        double low = atLeast(101, 50 / 101.0, 51);
        assertThat(low).isBetween(0.40, 0.50);
        // Resampled differences: 2.4−1.2−0.2 = 1.0 ms with P = low·(1−low) ≈ 0.25, 2.6−1.0−0.2 = 1.4 ms with the same,
        // 1.2 ms otherwise. Both ends hold far more than 2.5% each, so the 2.5th and 97.5th percentiles are 1.0 and 1.4.
        assertThat(low * (1 - low)).isGreaterThan(0.2);

        DifferenceOfMedians d = DifferenceOfMedians.of(space, List.of(hyperfine, ping), 7);

        assertThat(d.differenceNs()).isEqualTo(2_600_000 - 1_200_000 - 200_000);
        assertThat(d.lowerNs()).isEqualTo(1_000_000);
        assertThat(d.upperNs()).isEqualTo(1_400_000);
        assertThat(d.includesZero()).isFalse();
    }

    @Test
    void aFloorBetweenThePlateausIsWithinNoise() {
        long[] space = plateaus(50, 2_400_000, 51, 2_600_000);
        long[] ping = plateaus(0, 0, 101, 2_500_000);

        DifferenceOfMedians d = DifferenceOfMedians.of(space, List.of(ping), 11);

        assertThat(d.differenceNs()).isEqualTo(100_000);
        assertThat(d.lowerNs()).isEqualTo(-100_000);
        assertThat(d.upperNs()).isEqualTo(100_000);
        assertThat(d.includesZero()).isTrue();
    }

    /** A bootstrap written out plainly (build each resample, sort it, take its nearest-rank median) agrees. */
    @Test
    void aPlainBootstrapAgreesOnSpreadSamples() {
        Random data = new Random(42);
        long[] space = LongStream.range(0, 400).map(i -> 2_000_000 + (long) (Math.exp(data.nextGaussian() * 0.3) * 300_000)).toArray();
        long[] floor = LongStream.range(0, 300).map(i -> 1_900_000 + (long) (Math.exp(data.nextGaussian() * 0.3) * 300_000)).toArray();

        DifferenceOfMedians d = DifferenceOfMedians.of(space, List.of(floor), 3);

        assertThat(d.differenceNs()).isEqualTo(median(space) - median(floor));
        Random draws = new Random(99);
        int b = 4000;
        long[] differences = new long[b];
        for (int i = 0; i < b; i++) {
            differences[i] = median(resample(space, draws)) - median(resample(floor, draws));
        }
        Arrays.sort(differences);
        long lower = differences[(int) Math.ceil(0.025 * b) - 1];
        long upper = differences[(int) Math.ceil(0.975 * b) - 1];
        long width = upper - lower;
        assertThat(width).isPositive();
        // Two Monte Carlo estimates of the same percentiles: they agree within a tenth of the interval's width.
        assertThat(d.lowerNs()).isBetween(lower - width / 10, lower + width / 10);
        assertThat(d.upperNs()).isBetween(upper - width / 10, upper + width / 10);
    }

    private static long[] resample(long[] samples, Random random) {
        long[] out = new long[samples.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = samples[random.nextInt(samples.length)];
        }
        return out;
    }

    /** Nearest rank: the ⌈n/2⌉-th smallest. */
    private static long median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length + 1) / 2 - 1];
    }
}
