package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TimerGranularityTest {

    @Test
    void smallestStepIsPositiveAndBelowAMillisecond() {
        long granularity = TimerGranularity.smallestStep(100_000);

        assertThat(granularity).isPositive().isLessThan(1_000_000);
    }

    @Test
    void stepsAreThePositiveDifferences() {
        long[] steps = TimerGranularity.steps(10_000);

        assertThat(steps).isNotEmpty().hasSizeLessThanOrEqualTo(9_999);
        assertThat(LongStream.of(steps).boxed().toList()).allMatch(step -> step > 0);
        assertThatThrownBy(() -> TimerGranularity.steps(1)).isInstanceOf(IllegalArgumentException.class);
    }
}
