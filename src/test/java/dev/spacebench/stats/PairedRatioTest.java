package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PairedRatioTest {

    @Test
    void thirtyBlocksAgreeWithScipysExactSignedRankTestInverted() throws Exception {
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        drifting(new Random(1), 30, 1.3, a, b);

        checkAgainstScipy(a, b, "exact", PairedRatio.of(a, b));
    }

    @Test
    void sevenBlocksAgreeToo() throws Exception {
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        drifting(new Random(2), 7, 0.8, a, b);

        checkAgainstScipy(a, b, "exact", PairedRatio.of(a, b));
    }

    @Test
    void aboveTheExactLimitTheNormalApproximationAgreesWithScipys() throws Exception {
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        drifting(new Random(3), PairedRatio.EXACT_MAX_BLOCKS + 50, 1.02, a, b);

        PairedRatio result = PairedRatio.of(a, b);
        assertThat(result.exact()).isFalse();
        checkAgainstScipy(a, b, "approx", result);
    }

    @Test
    void atTheExactLimitTheApproximationIsWithinARankOrTwo() {
        for (int k : new int[] {100, 400}) {
            assertThat(PairedRatio.approximateC(k, 0.025)).as("k = %d", k).isCloseTo(PairedRatio.exactC(k, 0.025), within(2L));
        }
    }

    @Test
    void fiveBlocksCannotBoundA95PercentInterval() throws Exception {
        // 2^-5 = 0.03125 > 0.025: no signed-rank value is rare enough on either side.
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        drifting(new Random(4), 5, 2, a, b);

        PairedRatio result = PairedRatio.of(a, b);
        assertThat(result.bounded()).isFalse();
        assertThat(result.lower()).isZero();
        assertThat(result.upper()).isInfinite();
        checkAgainstScipy(a, b, "exact", result);
    }

    @Test
    void sixBlocksAllAboveGiveTheirSmallestAndLargestRatios() {
        // k = 6: P(T+ = 21) = 1/64 ≤ 0.025 < P(T+ ≥ 20) = 2/64, so t = 21, C = 1: the interval runs
        // from the smallest Walsh average to the largest, i.e. the smallest and largest single d_i.
        long[] a = {200, 300, 400, 500, 600, 700};
        long[] b = {100, 100, 100, 100, 100, 100};

        PairedRatio result = PairedRatio.ofMedians(a, b, 0.95);

        assertThat(result.lower()).isCloseTo(2.0, within(1e-12));
        assertThat(result.upper()).isCloseTo(7.0, within(1e-12));
        assertThat(result.includesOne()).isFalse();
    }

    @Test
    void driftThatMovesBothSeriesOfAPairCancels() {
        // Each block pair shares a host slowdown of up to 3x; A is always 1.5x B within the pair.
        Random random = new Random(9);
        List<long[]> a = new ArrayList<>();
        List<long[]> b = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            double host = 1 + 2 * random.nextDouble();
            a.add(LongStream.generate(() -> Math.round(1_500_000 * host * (1 + 0.02 * random.nextGaussian()))).limit(10).toArray());
            b.add(LongStream.generate(() -> Math.round(1_000_000 * host * (1 + 0.02 * random.nextGaussian()))).limit(10).toArray());
        }

        PairedRatio result = PairedRatio.of(a, b);

        assertThat(result.lower()).isLessThan(1.5).isGreaterThan(1.45);
        assertThat(result.upper()).isGreaterThan(1.5).isLessThan(1.55);
    }

    @Test
    void refusesBadInput() {
        assertThatThrownBy(() -> PairedRatio.of(List.of(new long[] {1}), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same number of blocks");
        assertThatThrownBy(() -> PairedRatio.of(List.of(new long[0]), List.of(new long[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("block 1 has no samples");
        assertThatThrownBy(() -> PairedRatio.ofMedians(new long[] {1}, new long[] {0}, 0.95))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> PairedRatio.ofMedians(new long[] {1}, new long[] {1}, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("level");
    }

    /** k blocks of 10 per series; a slow drift shared by both and A about {@code factor} × B. */
    private static void drifting(Random random, int k, double factor, List<long[]> a, List<long[]> b) {
        for (int i = 0; i < k; i++) {
            double host = 1 + 0.5 * Math.sin(i / 4.0);
            a.add(LongStream.generate(() -> Math.round(factor * 1_000_000 * host * (1 + 0.3 * random.nextDouble()))).limit(10).toArray());
            b.add(LongStream.generate(() -> Math.round(1_000_000 * host * (1 + 0.3 * random.nextDouble()))).limit(10).toArray());
        }
    }

    private static void checkAgainstScipy(List<long[]> a, List<long[]> b, String method, PairedRatio result) throws Exception {
        assumeTrue(scipyAvailable(), "SciPy is not installed for python3 (Debian package python3-scipy)");
        Path json = Files.createTempFile("spacebench-paired-", ".json");
        Files.writeString(json, "{\"a\":" + blocks(a) + ",\"b\":" + blocks(b) + ",\"level\":0.95}");
        Process python = new ProcessBuilder("python3", "src/test/python/paired_ratio.py", json.toString(), method)
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(python.waitFor()).as(output).isZero();
        Files.delete(json);
        String[] parts = output.split(" ");
        assertThat(result.ratio()).as("estimate against numpy's").isCloseTo(Double.parseDouble(parts[0]), within(1e-12));
        assertThat(result.lower()).as("lower end against SciPy's").isCloseTo(Double.parseDouble(parts[1]), within(1e-12));
        if (parts[2].equals("inf")) {
            assertThat(result.upper()).isInfinite();
        } else {
            assertThat(result.upper()).as("upper end against SciPy's").isCloseTo(Double.parseDouble(parts[2]), within(1e-12));
        }
    }

    private static String blocks(List<long[]> blocks) {
        return blocks.stream().map(x -> LongStream.of(x).mapToObj(Long::toString).collect(Collectors.joining(",", "[", "]")))
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static boolean scipyAvailable() {
        try {
            return new ProcessBuilder("python3", "-c", "import scipy, numpy").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
