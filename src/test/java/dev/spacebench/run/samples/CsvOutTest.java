package dev.spacebench.run.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-rolled number and text writing against the JDK's own Long.toString and UTF-8 encoder. */
class CsvOutTest {

    @Test
    void numbersAreWrittenAsLongToStringWritesThemAcrossBufferBoundaries() throws Exception {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, 9L, 10L, 11L, 99L, 100L, Long.MAX_VALUE, Long.MIN_VALUE,
                Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1));
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            values.addAll(List.of(p - 1, p, p + 1, p * 10 - 1));
        }
        SplittableRandom random = new SplittableRandom(14);
        // Enough values that the 64 KiB buffer drains many times, at every offset a number may end at.
        for (int i = 0; i < 50_000; i++) {
            values.add(random.nextLong() >>> random.nextInt(64));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvOut out = new CsvOut(bytes);
        StringBuilder expected = new StringBuilder();
        for (long value : values) {
            out.number(value);
            out.newline();
            expected.append(Long.toString(value)).append('\n');
        }
        out.flush();
        assertThat(bytes.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void textIsUtf8WhereverItFallsInTheBuffer() throws Exception {
        List<String> texts = List.of("exec.noop", "measured", "", "µs and ü", "漢字 after ASCII", "𝄞 outside the BMP",
                "x".repeat(70_000), "é" + "y".repeat(70_000), "z".repeat(65_535) + "ß");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvOut out = new CsvOut(bytes);
        StringBuilder expected = new StringBuilder();
        for (int round = 0; round < 40; round++) {
            for (String text : texts) {
                out.utf8(text);
                out.comma();
                out.quoted(text.isEmpty() ? "say \"hi\"" : text.substring(0, Math.min(text.length(), 7 + round)));
                out.newline();
                expected.append(text).append(',')
                        .append('"').append((text.isEmpty() ? "say \"hi\"" : text.substring(0, Math.min(text.length(), 7 + round)))
                                .replace("\"", "\"\"")).append('"').append('\n');
            }
        }
        out.flush();
        assertThat(bytes.toByteArray()).isEqualTo(expected.toString().getBytes(StandardCharsets.UTF_8));
    }
}
