package dev.spacebench.compare;

import java.util.List;

/**
 * Two sides metric by metric, with the environments side by side.
 *
 * @param likeForLike false when the machines or kinds differ in ways that change the figures
 * @param warnings what makes it not like for like, in plain words
 */
public record Comparison(String aTitle, String aLink, String bTitle, String bLink, List<Row> rows,
                         List<EnvironmentRow> environment, boolean likeForLike, List<String> warnings) {

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
