package dev.spacebench.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Issue 29 point 5: the runs a benchmark pools are exactly those published since its plan last changed, seeds aside. */
class PoolWindowTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode plan(String text) {
        return JSON.readTree(text);
    }

    @Test
    void takesTheNewestRunsUpToTheLastPlanChangeIgnoringTheSeed() {
        // Newest first: runs 9, 8, 7 share a plan but for their seeds; 6 has another n; 5 has the
        // first plan again, but a change came between, so it is not pooled.
        Map<String, JsonNode> plans = Map.of(
                "9", plan("{\"exec\":{\"n\":300},\"seed\":11}"),
                "8", plan("{\"exec\":{\"n\":300},\"seed\":12}"),
                "7", plan("{\"seed\":13,\"exec\":{\"n\":300}}"),
                "6", plan("{\"exec\":{\"n\":200},\"seed\":14}"),
                "5", plan("{\"exec\":{\"n\":300},\"seed\":15}"));
        assertThat(PoolWindow.sincePlanChanged(List.of("9", "8", "7", "6", "5"), plans::get)).containsExactly("9", "8", "7");
        assertThat(PoolWindow.sincePlanChanged(List.of("6", "5"), plans::get)).containsExactly("6");
        assertThat(PoolWindow.sincePlanChanged(List.of(), plans::get)).isEmpty();
    }

    @Test
    void aSeedInsideThePlanIsNotTheRunsSeedAndCounts() {
        // Only the plan's own top-level seed is drawn per run; a nested one is part of what was asked.
        Map<String, JsonNode> plans = Map.of(
                "2", plan("{\"files\":{\"seed\":1}}"),
                "1", plan("{\"files\":{\"seed\":2}}"));
        assertThat(PoolWindow.sincePlanChanged(List.of("2", "1"), plans::get)).containsExactly("2");
    }
}
