package dev.spacebench.run.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SortedSamplesTest {

    @Test
    void encodesAsWorkedOutByHand() {
        // 3 → zig-zag 6; +0; +127; +170 = 0b1_0101010 → 0xAA 0x01.
        assertThat(SortedSamples.encode(new long[] {3, 3, 130, 300})).containsExactly(0x06, 0x00, 0x7F, 0xAA, 0x01);
        // -5 → zig-zag 9; +300 = 0b10_0101100 → 0xAC 0x02.
        assertThat(SortedSamples.encode(new long[] {-5, 295})).containsExactly(0x09, 0xAC, 0x02);
        assertThat(SortedSamples.encode(new long[0])).isEmpty();
    }

    @Test
    void decodesWhatItEncodes() {
        Random random = new Random(7);
        for (int round = 0; round < 50; round++) {
            long[] values = new long[random.nextInt(5000)];
            for (int i = 0; i < values.length; i++) {
                values[i] = round % 5 == 0 ? random.nextLong(1L << 62) : 200_000 + random.nextInt(round * 1000 + 1);
            }
            Arrays.sort(values);
            assertThat(SortedSamples.decode(SortedSamples.encode(values), values.length)).containsExactly(values);
        }
        long[] edges = {0, 0, 1, 127, 128, 16_383, 16_384, Long.MAX_VALUE / 2, Long.MAX_VALUE};
        assertThat(SortedSamples.decode(SortedSamples.encode(edges), edges.length)).containsExactly(edges);
    }

    @Test
    void refusesValuesNotAscendingAndDataThatEndsEarly() {
        assertThatThrownBy(() -> SortedSamples.encode(new long[] {5, 4})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("index 1");
        assertThatThrownBy(() -> SortedSamples.decode(new byte[] {0x06, 0x00}, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("after 2 of 3");
    }
}
