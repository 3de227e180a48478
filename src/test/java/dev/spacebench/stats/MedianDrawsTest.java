package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** A bootstrap resample's median drawn from its exact distribution, against a resampling done by hand. */
class MedianDrawsTest {

    @Test
    void drawsMediansAsOftenAsResamplingDoes() {
        long[] sorted = {10, 20, 30, 40, 50, 60, 70};
        int draws = 200_000;
        MedianDraws medians = new MedianDraws(sorted);
        Random exact = new Random(1);
        Random resampling = new Random(2);
        int[] drawn = new int[sorted.length];
        int[] resampled = new int[sorted.length];
        for (int d = 0; d < draws; d++) {
            drawn[(int) (medians.next(exact) / 10 - 1)]++;
            // The slow way: 7 draws with replacement, sorted, the 4th smallest (nearest-rank p50 of 7).
            long[] resample = new long[sorted.length];
            for (int i = 0; i < resample.length; i++) {
                resample[i] = sorted[resampling.nextInt(sorted.length)];
            }
            java.util.Arrays.sort(resample);
            resampled[(int) (resample[3] / 10 - 1)]++;
        }
        for (int j = 0; j < sorted.length; j++) {
            assertThat((double) drawn[j] / draws).as("P(median = x[%d])", j + 1)
                    .isCloseTo((double) resampled[j] / draws, within(0.006));
        }
        // P(median = 40) = P(Bin(7, 4/7) ≥ 4) − P(Bin(7, 3/7) ≥ 4) = 0.65310 − 0.34690 = 0.30620.
        assertThat((double) drawn[3] / draws).isCloseTo(0.3062, within(0.006));
    }
}
