package dev.spacebench.compare;

import dev.spacebench.baseline.BaselineFigures;
import dev.spacebench.plan.Plan;
import java.util.Map;
import java.util.SortedMap;
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
 * @param interleavedPlan the run's plan when it was measured in interleaved blocks; null for a sequential run or a
 *     baseline without a run. Two sides pair block by block only when both have one and they are equal.
 * @param blocks metric → (block → median ns) as the run stored them; empty without blocks
 */
public record Side(String title, String link, boolean hasSamples, Map<String, BaselineFigures> figures,
                   Map<String, String> environment, Function<String, long[]> samples, Plan interleavedPlan,
                   Map<String, SortedMap<Integer, Long>> blocks) {

    /** A side without blocks: its ratios are unpaired. */
    public Side(String title, String link, boolean hasSamples, Map<String, BaselineFigures> figures,
                Map<String, String> environment, Function<String, long[]> samples) {
        this(title, link, hasSamples, figures, environment, samples, null, Map.of());
    }
}
