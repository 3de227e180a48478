package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.run.MetricResult;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * One "added" figure per exec metric, with its interval, and "within noise" where the interval holds zero or the
 * difference is under the timer's step. The samples are two plateaus each, so a resampled median takes one of two
 * values (see DifferenceOfMediansTest, which works the probabilities out) and every sentence below is written by hand.
 */
class AddedAboveFloorTest {

    private static long[] plateaus(int low, long a, int high, long b) {
        return LongStream.concat(LongStream.generate(() -> a).limit(low), LongStream.generate(() -> b).limit(high)).toArray();
    }

    /** A stored result whose p50 is its samples' nearest-rank median (the 51st of 101). */
    private static MetricResult result(String metric, long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        long p50 = sorted[(sorted.length + 1) / 2 - 1];
        return new MetricResult(1L, metric, 0, 0, null, sorted.length, 0, 0, p50, p50, p50, p50, sorted[sorted.length - 1],
                (double) p50, 0.0, null, null);
    }

    @Test
    void eachMetricGetsOneFigureWithItsIntervalAndNoiseIsCalledNoise() {
        Map<String, long[]> samples = new LinkedHashMap<>();
        samples.put("exec.true", plateaus(50, 2_400_000, 51, 2_600_000));           // median 2.6 ms, resampled 2.4 or 2.6
        samples.put("floor.hyperfine.true", plateaus(50, 1_000_000, 51, 1_200_000)); // median 1.2 ms, resampled 1.0 or 1.2
        samples.put("floor.spawn.true", plateaus(0, 0, 101, 900_000));              // not used: hyperfine ran
        samples.put("floor.grpc.noop", plateaus(0, 0, 101, 200_000));               // 0.2 ms, always
        samples.put("exec.noop", plateaus(50, 100_000, 51, 400_000));               // median 0.4 ms, resampled 0.1 or 0.4
        samples.put("exec.sh_c", plateaus(50, 1_000_000, 51, 1_100_000));           // median 1.1 ms, resampled 1.0 or 1.1
        samples.put("floor.spawn.sh_c", plateaus(0, 0, 101, 1_300_000));            // no hyperfine sh -c: the agent's spawn
        List<MetricResult> results = samples.entrySet().stream().map(e -> result(e.getKey(), e.getValue())).toList();

        Split split = Split.of(results, null, samples);

        assertThat(split.added()).extracting(Split.Added::metric).containsExactly("exec.noop", "exec.true", "exec.sh_c");
        Split.Added noop = split.added().get(0);
        Split.Added trueCmd = split.added().get(1);
        Split.Added shC = split.added().get(2);
        // no-op: 0.4 − 0.2 = +0.2 ms; resampled 0.1 − 0.2 = −0.1 ms or +0.2 ms: the interval holds zero.
        assertThat(noop.text()).isEqualTo("no-op: its p50 round trip (400 µs) is 200 µs above a bare gRPC ping (200 µs), within "
                + "this run's noise: the 95% CI of the difference, −100 µs to +200 µs, includes zero; Spacebench and the Space "
                + "added nothing measurable.");
        assertThat(noop.withinNoise()).isTrue();
        // true: 2.6 − 1.2 − 0.2 = 1.2 ms; resampled 1.0, 1.2 or 1.4 ms. The floor is 1.4 ms: 1.2 / 1.4 = 86%.
        assertThat(trueCmd.text()).isEqualTo("Spacebench and the Space added 1.20 ms to true (95% CI +1.00 ms to +1.40 ms; +86% "
                + "of the floor): its p50 round trip is 2.60 ms, where hyperfine -N true plus a bare gRPC ping take 1.40 ms.");
        assertThat(trueCmd.withinNoise()).isFalse();
        assertThat(trueCmd.ciLowerNs()).isEqualTo(1_000_000);
        assertThat(trueCmd.ciUpperNs()).isEqualTo(1_400_000);
        // sh -c true: 1.1 − 1.3 − 0.2 = −0.4 ms; resampled −0.5 or −0.4 ms: below the floor beyond the noise.
        assertThat(shC.text()).isEqualTo("sh -c true: its p50 round trip (1.10 ms) came out 400 µs below starting sh -c true on "
                + "the host plus a bare gRPC ping (1.50 ms), 95% CI of the difference −500 µs to −400 µs, beyond this run's noise: "
                + "this floor does not bound it from below on this host.");
        assertThat(shC.below()).isTrue();
    }

    @Test
    void aDifferenceUnderTheTimersStepIsWithinNoiseAndNoSamplesMeansNoInterval() {
        List<MetricResult> results = List.of(result("exec.noop", plateaus(0, 0, 11, 300_500)),
                result("floor.grpc.noop", plateaus(0, 0, 11, 300_000)), result("floor.timer", new long[] {1_000}));

        // 300.5 µs to three digits, half-even, is 300 µs: the sentence shows the two p50s alike and the 500 ns between them.
        assertThat(Split.of(results).added()).singleElement().extracting(Split.Added::text).isEqualTo("no-op: its p50 round trip "
                + "(300 µs) is 500 ns above a bare gRPC ping (300 µs), within this run's noise: that is less than the timer's "
                + "smallest step (1.00 µs); Spacebench and the Space added nothing measurable.");

        List<MetricResult> coarse = List.of(result("exec.noop", plateaus(0, 0, 11, 350_000)),
                result("floor.grpc.noop", plateaus(0, 0, 11, 300_000)));
        assertThat(Split.of(coarse).added()).singleElement().extracting(Split.Added::text).isEqualTo("Spacebench and the Space "
                + "added 50.0 µs to no-op (+17% of the floor): its p50 round trip is 350 µs, where a bare gRPC ping takes 300 µs. "
                + "No interval: this run's samples were not stored sorted, so the difference could not be resampled.");
    }
}
