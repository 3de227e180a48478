package dev.spacebench.publish.plot;

import java.util.List;

/**
 * An interleaved run's drift plot as an SVG string: each series' block medians against the block index (the rounds
 * ran in that order, so the x axis is time), each divided by the median of its own block medians so that series
 * hundreds of µs and several ms long share one linear y axis from 0, where a steady host draws flat lines at 1.
 * A series flagged by the drift check is drawn thicker and named so in its legend.
 */
public final class DriftPlot {

    private DriftPlot() {}

    /**
     * One series.
     *
     * @param label the legend's text
     * @param blocks block numbers, ascending
     * @param medians the block medians, ns, in the same order, each ≥ 0
     * @param flagged whether the drift check flagged it
     */
    public record Series(String label, List<Integer> blocks, List<Long> medians, boolean flagged) {
        public Series {
            if (blocks.size() != medians.size() || blocks.isEmpty()) {
                throw new IllegalArgumentException("blocks and medians must be as many, at least one: " + blocks.size() + " and "
                        + medians.size());
            }
        }
    }

    /** @throws IllegalArgumentException without a series */
    public static String svg(String title, List<Series> series) {
        if (series.isEmpty()) {
            throw new IllegalArgumentException("a drift plot needs at least one series");
        }
        int first = series.stream().mapToInt(s -> s.blocks().get(0)).min().orElseThrow();
        int last = series.stream().mapToInt(s -> s.blocks().get(s.blocks().size() - 1)).max().orElseThrow();
        double span = Math.max(1, last - first);
        double max = 0;
        double[][] relative = new double[series.size()][];
        for (int i = 0; i < series.size(); i++) {
            List<Long> m = series.get(i).medians();
            long[] sorted = m.stream().mapToLong(Long::longValue).sorted().toArray();
            double middle = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
            relative[i] = m.stream().mapToDouble(v -> middle > 0 ? v / middle : 0).toArray();
            for (double v : relative[i]) {
                max = Math.max(max, v);
            }
        }
        List<Chart.Tick> ticks = new java.util.ArrayList<>();
        int step = Math.max(1, (int) Math.ceil(span / 10));
        for (int b = first; b <= last; b += step) {
            ticks.add(new Chart.Tick((b - first) / span, Integer.toString(b)));
        }
        Chart chart = new Chart(title, "", "Block (rounds in the order they ran: time →)", ticks,
                "Block median ÷ the series' median", Math.max(max, 1.2));
        StringBuilder description = new StringBuilder("Each series' block medians divided by the median of its block medians, "
                + "against the block index; a steady host draws flat lines at 1.");
        String one = Svg.px(chart.y(1));
        chart.add("<line class=\"one\" x1=\"" + Svg.px(chart.x(0)) + "\" x2=\"" + Svg.px(chart.x(1)) + "\" y1=\"" + one + "\" y2=\""
                + one + "\" stroke=\"#555555\" stroke-width=\"1\" stroke-dasharray=\"4 4\"/>");
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String color = Chart.color(i);
            String dash = i >= 7 ? " stroke-dasharray=\"6 3\"" : "";
            StringBuilder points = new StringBuilder();
            for (int k = 0; k < s.blocks().size(); k++) {
                double x = chart.x((s.blocks().get(k) - first) / span);
                points.append(Svg.px(x)).append(',').append(Svg.px(chart.y(relative[i][k]))).append(' ');
            }
            String width = s.flagged() ? "3" : "1.5";
            chart.add("<g class=\"line\" data-series=\"" + Svg.escape(s.label()) + "\" data-flagged=\"" + s.flagged()
                    + "\"><polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + width + "\"" + dash + " points=\""
                    + points.toString().trim() + "\">" + Svg.title(s.label()) + "</polyline></g>");
            String label = s.label() + (s.flagged() ? " (drifted)" : "");
            chart.legend("<line x1=\"0\" x2=\"12\" y1=\"0\" y2=\"0\" stroke=\"" + color + "\" stroke-width=\"3\"" + dash + "/>", label);
            description.append(' ').append(label).append(": from ").append(Svg.fixed(relative[i][0], 3)).append(" to ")
                    .append(Svg.fixed(relative[i][relative[i].length - 1], 3)).append(';');
        }
        return chart.render(description.toString());
    }
}
