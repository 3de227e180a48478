package dev.spacebench.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which of a benchmark's published runs its pooled figures take: every run published under the
 * slug since the plan last changed. Plans are compared as stored JSON without their {@code seed}
 * (drawn afresh for each run when it is submitted, so it differs between repeats of one plan).
 */
final class PoolWindow {

    private PoolWindow() {}

    /**
     * @param newestFirst the published runs, newest first
     * @param plan a run's plan as JSON; null when it has none
     * @return the newest run and every run before it, newest first, up to (not including) the
     *     first whose plan differs from the newest's; empty when there are no runs
     */
    static <T> List<T> sincePlanChanged(List<T> newestFirst, Function<T, JsonNode> plan) {
        List<T> window = new ArrayList<>();
        JsonNode current = null;
        for (T run : newestFirst) {
            JsonNode mine = withoutSeed(plan.apply(run));
            if (window.isEmpty()) {
                current = mine;
            } else if (!Objects.equals(current, mine)) {
                break;
            }
            window.add(run);
        }
        return window;
    }

    /** A copy of the plan without its top-level {@code seed}; null stays null. */
    static JsonNode withoutSeed(JsonNode plan) {
        if (plan instanceof ObjectNode object && object.has("seed")) {
            ObjectNode copy = object.deepCopy();
            copy.remove("seed");
            return copy;
        }
        return plan;
    }
}
