package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SignificantDigitsTest {

    @Test
    void threeDigits() {
        assertThat(SignificantDigits.three(2.8912)).isEqualTo("2.89");
        assertThat(SignificantDigits.three(0.21549)).isEqualTo("0.215");
        assertThat(SignificantDigits.three(1234.5)).isEqualTo("1230");
        assertThat(SignificantDigits.three(215.3)).isEqualTo("215");
        assertThat(SignificantDigits.three(1.5)).isEqualTo("1.50");
        assertThat(SignificantDigits.three(-18.04)).isEqualTo("-18.0");
        assertThat(SignificantDigits.three(0)).isEqualTo("0");
    }
}
