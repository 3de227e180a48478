package dev.spacebench.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.baseline.BaselineFigures;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The significance rule, each combination: a difference is significant only when the
 * Mann-Whitney p is below 0.05 AND the bootstrap interval of the ratio of medians leaves out 1.
 */
class ComparerSignificanceTest {

    private static final String METRIC = "exec.true";

    private static Side side(String title, long... samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        long median = sorted[sorted.length / 2];
        BaselineFigures figures = new BaselineFigures(METRIC, sorted.length, median, null, null, null, null);
        return new Side(title, "/" + title, true, Map.of(METRIC, figures), Map.of(), m -> sorted);
    }

    private static Comparison.Row row(Side a, Side b) {
        return Comparer.compare(a, b).rows().get(0);
    }

    private static long[] repeat(long value, int times) {
        return LongStream.generate(() -> value).limit(times).toArray();
    }

    private static long[] concat(long[]... parts) {
        return Arrays.stream(parts).flatMapToLong(Arrays::stream).toArray();
    }

    @Test
    void smallPAndAnIntervalWithoutOneIsSignificant() {
        Comparison.Row row = row(side("a", LongStream.range(100, 130).toArray()), side("b", LongStream.range(200, 230).toArray()));
        assertThat(row.pValue()).isLessThan(0.05);
        assertThat(row.ratioLower()).isGreaterThan(1);
        assertThat(row.significant()).isTrue();
        assertThat(row.verdict()).isEqualTo("b is slower (significant)");
        Comparison.Row reversed = row(side("b", LongStream.range(200, 230).toArray()), side("a", LongStream.range(100, 130).toArray()));
        assertThat(reversed.significant()).isTrue();
        assertThat(reversed.verdict()).isEqualTo("b is faster (significant)");
    }

    @Test
    void smallPButAnIntervalThatHoldsOneIsNot() {
        // Equal medians (500), but every low value is a's and every high one b's: the ranks differ.
        Side a = side("a", concat(repeat(100, 15), repeat(500, 16)));
        Side b = side("b", concat(repeat(500, 16), repeat(900, 15)));
        Comparison.Row row = row(a, b);
        assertThat(row.pValue()).isLessThan(0.05);
        assertThat(row.ratioLower()).isLessThanOrEqualTo(1);
        assertThat(row.ratioUpper()).isGreaterThanOrEqualTo(1);
        assertThat(row.significant()).isFalse();
        assertThat(row.verdict()).isEqualTo("no significant difference");
    }

    @Test
    void anIntervalWithoutOneButALargePIsNot() {
        // Two samples a side: the medians are twice apart, but so few ranks cannot reach p < 0.05.
        Comparison.Row row = row(side("a", 10, 11), side("b", 20, 21));
        assertThat(row.pValue()).isGreaterThanOrEqualTo(0.05);
        assertThat(row.ratioLower()).isGreaterThan(1);
        assertThat(row.significant()).isFalse();
        assertThat(row.verdict()).isEqualTo("no significant difference");
    }

    @Test
    void aLargePAndAnIntervalThatHoldsOneIsNot() {
        long[] same = LongStream.range(100, 130).toArray();
        Comparison.Row row = row(side("a", same), side("b", same));
        assertThat(row.pValue()).isGreaterThanOrEqualTo(0.05);
        assertThat(row.ratioLower()).isLessThanOrEqualTo(1);
        assertThat(row.ratioUpper()).isGreaterThanOrEqualTo(1);
        assertThat(row.significant()).isFalse();
    }
}
