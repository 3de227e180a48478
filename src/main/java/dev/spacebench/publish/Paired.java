package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.ComparisonFigures;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.Run;
import dev.spacebench.run.samples.BlockMedians;
import dev.spacebench.run.samples.SortedSamples;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.springframework.stereotype.Component;

/**
 * A run's ratios as its page, page.md, result.json and {@code /compare} show them (issues 29 and 27), read from
 * what the run stored: its block medians, sorted samples and the skipped metrics among its Space facts. Every
 * paired ratio here, a Space over its floor, a channel over the agent, a comparison run's entry over its first, is
 * {@link dev.spacebench.stats.PairedRatio#byBlock}.
 *
 * @param interleaved whether the run was measured in interleaved blocks (else its ratios are unpaired)
 * @param figures each Space metric over its floor, each channel's over the agent's
 * @param drift the drift check of its series' block medians; empty for a run without blocks
 * @param channels the Channels table; empty for a run through the agent alone
 * @param skipped metric id → the channel's reason it could not do it, from the run's Space facts
 *     ({@value #NOT_MEASURED}…)
 * @param comparison a comparison run's entries side by side with their ratios to the first; null for a run of one Space
 */
public record Paired(boolean interleaved, PairedFigures figures, Drift drift, Channels channels, Map<String, String> skipped,
                     ComparisonFigures.Figures comparison) {

    /** How a skipped metric's Space fact is named: "not measured: via.command.exec.noop" → the reason. */
    public static final String NOT_MEASURED = "not measured: ";

    /** Reads what {@link Paired} needs of a stored run. */
    @Component
    public static class Reader {

        private final BlockMedians blocks;
        private final SortedSamples sorted;

        public Reader(BlockMedians blocks, SortedSamples sorted) {
            this.blocks = blocks;
            this.sorted = sorted;
        }

        /**
         * @param env the run's stored environment (its Space facts hold the skipped metrics); null when none was stored
         */
        public Paired read(Run run, Plan plan, List<MetricResult> results, Environment env) {
            long runId = run.getId();
            Map<String, SortedMap<Integer, Long>> medians = blocks.read(runId);
            if (medians.isEmpty() && run.isComparison() && !run.getStatus().finished()) {
                // Stored with the run's final figures: a comparison still going shows its entries' ratios from its
                // sample rows so far (one scan per read, as its Comparison table always did); other runs wait for the end.
                medians = blocks.fromSamples(runId);
            }
            return of(plan, List.copyOf(run.getSpaceSpec().served()), results, medians,
                    sorted.read(runId, PairedFigures.metrics(PairedFigures.candidates(results))), skipped(env),
                    ComparisonFigures.of(run, results, medians));
        }
    }

    /** The metrics a channel could not do, from the Space facts {@code run.RunExecution} stores them as. */
    static Map<String, String> skipped(Environment env) {
        Map<String, String> skipped = new LinkedHashMap<>();
        if (env != null && env.space() != null) {
            env.space().forEach((label, reason) -> {
                if (label.startsWith(NOT_MEASURED)) {
                    skipped.put(label.substring(NOT_MEASURED.length()), reason);
                }
            });
        }
        return skipped;
    }

    /** The page's Comparison table; null for a run of one Space. */
    public ComparisonTable comparisonTable() {
        return ComparisonTable.of(comparison);
    }

    /** The Method section's paragraphs on the ratios and the drift check ({@code prose/paired.txt}). */
    public List<String> method() {
        return TextTemplates.paragraphs("prose/paired", Map.of("p", this));
    }

    /** One caveat per series the drift check flagged ({@code prose/drift.txt}), naming it and its move. */
    public List<String> caveats() {
        List<String> caveats = new java.util.ArrayList<>();
        for (Drift.Series s : drift.flagged()) {
            caveats.add(String.join(" ", TextTemplates.paragraphs("prose/drift", Map.of("s", s, "d", drift))));
        }
        return caveats;
    }

    /** From what was read; see {@link Reader#read}. */
    public static Paired of(Plan plan, List<String> channels, List<MetricResult> results, Map<String, SortedMap<Integer, Long>> blocks,
                            Map<String, long[]> sorted, Map<String, String> skipped, ComparisonFigures.Figures comparison) {
        PairedFigures figures = PairedFigures.of(results, blocks, sorted);
        return new Paired(plan.interleaved(), figures, Drift.of(blocks, results), Channels.of(plan, channels, results, skipped, figures),
                Map.copyOf(skipped), comparison);
    }
}
