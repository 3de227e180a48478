package dev.spacebench.publish;

import dev.spacebench.plan.Plan;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.samples.BlockMedians;
import dev.spacebench.run.samples.SkippedMetrics;
import dev.spacebench.run.samples.SortedSamples;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.springframework.stereotype.Component;

/**
 * A run's comparisons as its page, page.md, result.json and {@code /compare} show them (issues 29 and 27), read from
 * what the run stored: its block medians, sorted samples and skipped metrics.
 *
 * @param interleaved whether the run was measured in interleaved blocks (else its ratios are unpaired)
 * @param figures every ratio the run compares
 * @param drift the drift check of its series' block medians; empty for a run without blocks
 * @param channels the Channels table; empty for a run through the agent alone
 * @param skipped metric id → the channel's reason it could not do it, as stored
 */
public record Paired(boolean interleaved, PairedFigures figures, Drift drift, Channels channels, Map<String, String> skipped) {

    /** Reads what {@link Paired} needs of a stored run. */
    @Component
    public static class Reader {

        private final BlockMedians blocks;
        private final SortedSamples sorted;
        private final SkippedMetrics skipped;

        public Reader(BlockMedians blocks, SortedSamples sorted, SkippedMetrics skipped) {
            this.blocks = blocks;
            this.sorted = sorted;
            this.skipped = skipped;
        }

        /** The run's block medians: metric → (block → median ns). */
        public Map<String, SortedMap<Integer, Long>> blockMedians(long runId) {
            return blocks.read(runId);
        }

        /**
         * @param channels the channels the run asked for (its Space spec's, the agent among them)
         */
        public Paired read(long runId, Plan plan, List<String> channels, List<MetricResult> results) {
            Map<String, SortedMap<Integer, Long>> medians = blocks.read(runId);
            return of(plan, channels, results, medians,
                    sorted.read(runId, PairedFigures.metrics(PairedFigures.candidates(results))), skipped.read(runId));
        }
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
                            Map<String, long[]> sorted, Map<String, String> skipped) {
        PairedFigures figures = PairedFigures.of(results, blocks, sorted);
        return new Paired(plan.interleaved(), figures, Drift.of(blocks, results), Channels.of(plan, channels, results, skipped, figures),
                Map.copyOf(skipped));
    }
}
