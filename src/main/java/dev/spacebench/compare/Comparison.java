package dev.spacebench.compare;

import java.util.List;

/**
 * Two sides metric by metric, with the environments side by side.
 *
 * @param likeForLike false when the machines or kinds differ in ways that change the figures
 * @param warnings what makes it not like for like, in plain words
 */
public record Comparison(String aTitle, String aLink, String bTitle, String bLink, List<Row> rows,
                         List<EnvironmentRow> environment, boolean likeForLike, List<String> warnings, List<PairedRow> paired,
                         String noPairing) {

    /** Without paired ratios: {@code noPairing} says none were computed. */
    public Comparison(String aTitle, String aLink, String bTitle, String bLink, List<Row> rows, List<EnvironmentRow> environment,
                      boolean likeForLike, List<String> warnings) {
        this(aTitle, aLink, bTitle, bLink, rows, environment, likeForLike, warnings, List.of(), "no paired interval computed");
    }

    /**
     * b ÷ a of one metric paired block by block (issue 29): both sides interleaved runs of the same plan, so block i of
     * each is the same place in the same schedule. The Hodges–Lehmann estimate of the log-ratios of the paired block
     * medians with the Wilcoxon signed-rank 95% interval ({@code stats.PairedRatio}). The two runs still ran at
     * different times: pairing lines up their schedules, it does not put them side by side in time.
     *
     * @param lower null when the blocks are too few to bound the interval (fewer than 6); {@code upper} likewise
     */
    public record PairedRow(String metric, double ratio, Double lower, Double upper, int blocks, String ratioText, String ciText) {
    }

    /** The paired ratio of {@code metric}, or null when it has none. */
    public PairedRow pairedFor(String metric) {
        return paired.stream().filter(p -> p.metric().equals(metric)).findFirst().orElse(null);
    }

    /**
     * @param ratio b's p50 / a's p50
     * @param test the test that was run and its figures, or "not testable: summary only"
     * @param pValue Mann–Whitney two-sided p-value; null when not testable
     * @param ratioLower bootstrap 95% CI of the ratio of medians (b / a), lower end; null when not testable
     * @param significant true when p &lt; 0.05 and the ratio's CI excludes 1; null when not testable
     */
    public record Row(String metric, String label, Long aP50Ns, String aText, Long bP50Ns, String bText, double ratio,
                      String ratioText, String test, Double pValue, Double ratioLower, Double ratioUpper, Boolean significant,
                      String verdict) {
    }

    /** @param differs true when the two sides disagree (or only one side knows) */
    public record EnvironmentRow(String label, String a, String b, boolean differs) {
    }
}
