package dev.spacebench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ThroughputTest {

    @Test
    void mibPerSecondByHand() {
        // 1 MiB in 1 s; 2 MiB in 0.5 s; 100 MiB in 0.345 s = 289.855… MiB/s
        assertThat(Throughput.mibPerSecondOrNull(1_048_576, 1_000_000_000L)).isEqualTo(1.0);
        assertThat(Throughput.mibPerSecondOrNull(2_097_152, 500_000_000L)).isEqualTo(4.0);
        assertThat(Throughput.mibPerSecondOrNull(104_857_600, 345_000_000L)).isCloseTo(289.855, within(0.001));
    }

    @Test
    void noThroughputWithoutBytesOrTime() {
        assertThat(Throughput.mibPerSecondOrNull(0, 1_000L)).isNull();
        assertThat(Throughput.mibPerSecondOrNull(1_048_576, null)).isNull();
        assertThat(Throughput.mibPerSecondOrNull(1_048_576, 0L)).isNull();
        assertThat(Throughput.mibPerSecondOrNull(1_048_576, -5L)).isNull();
    }
}
