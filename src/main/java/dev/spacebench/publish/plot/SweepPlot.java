package dev.spacebench.publish.plot;

import java.util.List;

/**
 * The concurrency sweep's plots as SVG strings: a figure (round trip p50 and p99 in ms, or round
 * trips per second) against the number of busy Spaces. The x axis is log₂ of the level with a
 * tick at each level measured (1, 2, 4, 8 evenly spaced); a dashed vertical line marks the host's
 * CPU count; the y axis is linear from 0.
 */
public final class SweepPlot {

    private static final double PAD_LOG2 = 0.5;

    private SweepPlot() {}

    /**
     * One line.
     *
     * @param label the legend's text
     * @param levels busy Spaces, ascending, each ≥ 1
     * @param values the figure at each level, in the y axis' unit; null where the level has none
     */
    public record Series(String label, List<Integer> levels, List<Double> values) {
        public Series {
            if (levels.size() != values.size()) {
                throw new IllegalArgumentException("levels and values differ in length: " + levels.size() + " and " + values.size());
            }
        }
    }

    /**
     * @param levels every level of the sweep, ascending (the x ticks)
     * @param hostCpus marked with a dashed line when within the levels' range; null: not marked
     * @throws IllegalArgumentException if there are no levels
     */
    public static String svg(String title, String yTitle, List<Integer> levels, Integer hostCpus, List<Series> series) {
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("a sweep plot needs at least one level");
        }
        double from = log2(levels.get(0)) - PAD_LOG2;
        double span = log2(levels.get(levels.size() - 1)) + PAD_LOG2 - from;
        List<Chart.Tick> ticks = levels.stream().map(l -> new Chart.Tick((log2(l) - from) / span, Integer.toString(l))).toList();
        double max = series.stream().flatMap(s -> s.values().stream()).filter(v -> v != null).mapToDouble(Double::doubleValue)
                .max().orElse(0);
        StringBuilder description = new StringBuilder(yTitle + " against busy Spaces (x axis logarithmic, base 2).");
        Chart chart = new Chart(title, "", "Busy Spaces (logarithmic, base 2)", ticks, yTitle, max);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String color = Chart.color(i);
            StringBuilder polyline = new StringBuilder();
            StringBuilder markers = new StringBuilder();
            description.append(' ').append(s.label()).append(':');
            for (int k = 0; k < s.levels().size(); k++) {
                Double value = s.values().get(k);
                if (value == null) {
                    continue;
                }
                double x = chart.x((log2(s.levels().get(k)) - from) / span);
                double y = chart.y(value);
                polyline.append(Svg.px(x)).append(',').append(Svg.px(y)).append(' ');
                String text = s.label() + ", " + s.levels().get(k) + " busy: " + Svg.fixed(value, 3);
                markers.append("<circle class=\"point\" data-level=\"").append(s.levels().get(k)).append("\" data-value=\"")
                        .append(value).append("\" cx=\"").append(Svg.px(x)).append("\" cy=\"").append(Svg.px(y))
                        .append("\" r=\"4.5\" fill=\"").append(color).append("\">").append(Svg.title(text)).append("</circle>");
                description.append(' ').append(s.levels().get(k)).append(" busy ").append(Svg.fixed(value, 3)).append(';');
            }
            chart.add("<g class=\"line\" data-series=\"" + Svg.escape(s.label()) + "\"><polyline fill=\"none\" stroke=\"" + color
                    + "\" stroke-width=\"2\" points=\"" + polyline.toString().trim() + "\"/>" + markers + "</g>");
            chart.legend("<line x1=\"0\" x2=\"12\" y1=\"0\" y2=\"0\" stroke=\"" + color + "\" stroke-width=\"3\"/>", s.label());
        }
        if (hostCpus != null && hostCpus > 0) {
            double fraction = (log2(hostCpus) - from) / span;
            if (fraction >= 0 && fraction <= 1) {
                String x = Svg.px(chart.x(fraction));
                chart.add("<line class=\"cpus\" data-cpus=\"" + hostCpus + "\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\""
                        + Svg.px(chart.y(chart.top())) + "\" y2=\"" + Svg.px(chart.y(0))
                        + "\" stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"4 4\"/>");
            }
            chart.legend("<line x1=\"6\" x2=\"6\" y1=\"-7\" y2=\"7\" stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"4 4\"/>",
                    "the host's " + hostCpus + " CPUs");
            description.append(" The host has ").append(hostCpus).append(" CPUs.");
        }
        return chart.render(description.toString());
    }

    private static double log2(int level) {
        return Math.log(level) / Math.log(2);
    }
}
