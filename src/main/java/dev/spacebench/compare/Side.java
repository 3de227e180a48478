package dev.spacebench.compare;

import dev.spacebench.baseline.BaselineFigures;
import java.util.Map;
import java.util.function.Function;

/**
 * One side of a comparison: a run, or a baseline.
 *
 * @param title e.g. "run 7 (process Space)" or "baseline cua-0.15.0"
 * @param link where to read more (the run's page, or the baseline's JSON)
 * @param hasSamples whether raw samples exist, so that tests of significance can run
 * @param figures per metric, in the side's order
 * @param environment labelled facts, e.g. "CPU" → "Apple M2 Max"
 * @param samples a metric's measured ok samples in ns, ascending (empty when there are none)
 */
public record Side(String title, String link, boolean hasSamples, Map<String, BaselineFigures> figures,
                   Map<String, String> environment, Function<String, long[]> samples) {
}
