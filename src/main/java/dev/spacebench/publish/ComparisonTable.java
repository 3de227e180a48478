package dev.spacebench.publish;

import dev.spacebench.run.CompareEntry;
import dev.spacebench.run.ComparisonFigures;
import java.util.ArrayList;
import java.util.List;

/**
 * A comparison run's figures as the run page shows them (issue 29; {@code fragments/comparison.html}):
 * one row per exec metric, one column per entry with its p50, and for each entry after the first
 * its ratio to the first with the 95% interval. Text only; the words around it are the template's.
 *
 * @param entries each entry's heading: its label and kind
 * @param rows one per exec metric
 * @param method how the ratio and interval are computed
 * @param firstLabel the first entry's label, which the ratios are to
 */
public record ComparisonTable(List<Heading> entries, List<Row> rows, String method, String firstLabel) {

    /** @param describe its kind, shape where asked and channels, e.g. "process" or "sandbox, cpus 1, via agent, ssh" */
    public record Heading(String label, String describe) {
    }

    /** @param cells one per entry, in entry order */
    public record Row(String metric, String label, List<Cell> cells) {
    }

    /**
     * @param p50 e.g. "2.89 ms" ("—" without samples)
     * @param ratio e.g. "1.04×"; null for the first entry
     * @param interval e.g. "0.98–1.10" (or "unbounded: too few blocks"); null for the first entry or without pairs
     * @param includesOne whether the interval holds 1; null where there is none
     * @param id the stored metric id of the entry's samples (the cell's data-metric)
     */
    public record Cell(String id, String p50, int n, String ratio, String interval, Boolean includesOne, int blocks) {
    }

    /** @return the page's table of {@code figures}; null for null (a run of one Space) */
    public static ComparisonTable of(ComparisonFigures.Figures figures) {
        if (figures == null) {
            return null;
        }
        List<Heading> headings = new ArrayList<>();
        for (CompareEntry entry : figures.entries()) {
            String describe = entry.space().kind();
            String shape = entry.space().describeShape();
            if (!"none".equals(shape)) {
                describe += ", " + shape;
            }
            if (entry.space().channels() != null) {
                describe += ", via " + String.join(", ", entry.space().channels());
            }
            headings.add(new Heading(entry.label(), describe));
        }
        List<Row> rows = new ArrayList<>();
        for (ComparisonFigures.Row row : figures.metrics()) {
            List<Cell> cells = new ArrayList<>();
            boolean first = true;
            for (ComparisonFigures.Cell c : row.entries()) {
                String ratio = first || c.ratio() == null ? null : Format.significant(c.ratio()) + "×";
                String interval = first || c.ratio() == null ? null
                        : c.lower() == 0 || c.upper() == null ? "unbounded (" + c.blocks() + " block pairs: too few)"
                        : Format.significant(c.lower()) + "–" + Format.significant(c.upper());
                cells.add(new Cell(c.id(), Format.duration(c.p50Ns()), c.n(), ratio, interval, c.includesOne(), c.blocks()));
                first = false;
            }
            rows.add(new Row(row.metric(), row.label(), cells));
        }
        return new ComparisonTable(headings, rows, figures.method(), figures.entries().get(0).label());
    }
}
