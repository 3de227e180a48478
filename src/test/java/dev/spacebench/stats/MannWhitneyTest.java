package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

class MannWhitneyTest {

    @Test
    void separatedSetsWithoutTies() {
        MannWhitney result = MannWhitney.of(new long[] {1, 2, 3}, new long[] {4, 5, 6});

        // U₁ = 0, U₂ = 9, σ² = 9/12 · 7 = 5.25, z = (9 − 4.5 − 0.5)/√5.25 = 1.745743
        assertThat(result.u()).isEqualTo(0);
        assertThat(result.z()).isCloseTo(4 / Math.sqrt(5.25), within(1e-12));
        // 2·(1 − Φ(1.745743)); SciPy gives 0.08085559837005224
        assertThat(result.pValue()).isCloseTo(0.08085559837005224, within(1e-12));
        assertThat(result.test()).contains("Mann-Whitney").contains("two-sided");
    }

    @Test
    void tiesGetMidRanksAndTheTieCorrection() {
        // pooled: 1 | 2 2 2 | 3 3 3 | 4 → ranks 1 | 3 3 3 | 6 6 6 | 8; x holds 1, 2, 2, 3 → R₁ = 13, U₁ = 3
        MannWhitney result = MannWhitney.of(new long[] {1, 2, 2, 3}, new long[] {2, 3, 3, 4});

        assertThat(result.u()).isEqualTo(3);
        // σ² = 16/12 · (9 − 2·(27 − 3)/(8·7)) = 10.857143; z = (13 − 8 − 0.5)/σ
        double sigma = Math.sqrt(16.0 / 12 * (9 - 48.0 / 56));
        assertThat(result.z()).isCloseTo(4.5 / sigma, within(1e-12));
        assertThat(result.pValue()).isCloseTo(0.1720337089218229, within(1e-12));
    }

    @Test
    void allEqualIsNoEvidence() {
        MannWhitney result = MannWhitney.of(new long[] {5, 5, 5}, new long[] {5, 5});

        assertThat(result.u()).isEqualTo(3);
        assertThat(result.pValue()).isEqualTo(1.0);
    }

    @Test
    void agreesWithCommonsMathAndScipyOnLargerSets() {
        Random random = new Random(1);
        long[] x = random.longs(200, 1_000, 2_000).toArray();
        long[] y = random.longs(150, 1_100, 2_100).toArray();

        MannWhitney result = MannWhitney.of(x, y);

        double larger = Math.max(result.u(), 200.0 * 150 - result.u());
        assertThat(larger).isEqualTo(new MannWhitneyUTest().mannWhitneyU(asDoubles(x), asDoubles(y)));
        // SciPy on the same samples: U₁ = 11674.5, p = 0.00038593148810944967
        assertThat(result.u()).isEqualTo(11674.5);
        assertThat(result.pValue()).isCloseTo(0.00038593148810944967, within(1e-15));
    }

    @Test
    void needsSamplesOnBothSides() {
        assertThatThrownBy(() -> MannWhitney.of(new long[0], new long[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static double[] asDoubles(long[] values) {
        return Arrays.stream(values).asDoubleStream().toArray();
    }
}
