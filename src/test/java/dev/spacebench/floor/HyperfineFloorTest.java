package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class HyperfineFloorTest {

    /** The shape hyperfine 1.15 writes with --export-json (times and exit codes cut to three runs). */
    private static final String EXPORTED = """
            {
              "results": [
                {
                  "command": "true",
                  "mean": 0.0008745742000000001,
                  "stddev": 0.000025249528623322844,
                  "median": 0.0008792510000000001,
                  "user": 0.0008298,
                  "system": 0.0,
                  "min": 0.0008313540000000001,
                  "max": 0.000895377,
                  "times": [0.000895377, 0.0008792510000000001, 0.0008313540000000001],
                  "exit_codes": [0, 0, 0]
                }
              ]
            }
            """;

    @Test
    void readsSecondsAsNanoseconds() throws Exception {
        HyperfineFloor.Result result = HyperfineFloor.parse(EXPORTED);

        assertThat(result.available()).isTrue();
        assertThat(result.command()).isEqualTo("true");
        assertThat(result.meanNs()).isEqualTo(874_574);
        assertThat(result.medianNs()).isEqualTo(879_251);
        assertThat(result.minNs()).isEqualTo(831_354);
        assertThat(result.maxNs()).isEqualTo(895_377);
        assertThat(result.samplesNs()).containsExactly(895_377, 879_251, 831_354);
    }

    @Test
    void refusesOtherJson() {
        assertThatThrownBy(() -> HyperfineFloor.parse("{\"results\": []}")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> HyperfineFloor.parse("{\"results\": [{\"mean\": \"fast\"}]}")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> HyperfineFloor.parse("not json")).isInstanceOf(IOException.class);
    }

    @Test
    void findsProgramsOnlyOnTheSearchPath() {
        assertThat(HyperfineFloor.onPath("sh", "/nonexistent:/bin:/usr/bin")).isPresent();
        assertThat(HyperfineFloor.onPath("sh", "/nonexistent")).isEmpty();
        assertThat(HyperfineFloor.onPath("sh", null)).isEmpty();
    }

    @Test
    void runsHyperfineWhereItIsInstalled() throws Exception {
        HyperfineFloor.Result result = HyperfineFloor.run(20, 3);
        assumeTrue(result.available(), () -> "skipped: " + result.reason());

        assertThat(result.command()).isEqualTo("true");
        assertThat(LongStream.of(result.samplesNs()).boxed().toList()).hasSize(20).allMatch(ns -> ns > 0);
        assertThat(result.minNs()).isPositive().isLessThanOrEqualTo(result.medianNs());
        assertThat(result.medianNs()).isLessThanOrEqualTo(result.maxNs()).isLessThan(1_000_000_000L);
    }
}
