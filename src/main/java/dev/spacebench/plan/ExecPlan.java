package dev.spacebench.plan;

import java.util.List;

/**
 * Exec round trips: each metric runs {@code warmups} untimed-for-results iterations, then
 * {@code n} measured ones, serially.
 *
 * @param metrics wire names from {@link ExecMetric} ("noop", "true", "sh_c")
 * @param n measured iterations per metric
 * @param warmups warm-up iterations per metric, recorded but excluded from the figures
 */
public record ExecPlan(List<String> metrics, Integer n, Integer warmups) {
}
