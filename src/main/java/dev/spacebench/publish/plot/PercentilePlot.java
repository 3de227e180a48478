package dev.spacebench.publish.plot;

import dev.spacebench.stats.PercentileTable;
import dev.spacebench.stats.Percentiles;
import java.util.ArrayList;
import java.util.List;

/**
 * Latency against percentile, one line per series, as an SVG string (no script, no stylesheet).
 *
 * <p>The x axis is logarithmic toward the tail like HdrHistogram's percentile plotter: position
 * ∝ log₁₀(1 / (1 − p)), so 0%, 90%, 99%, 99.9% and 99.99% are evenly spaced. Points sit at round
 * percentiles: every 10% to 90%, every 1% to 99%, every 0.1% to 99.9%, every 0.01% to 99.99%
 * (37 in all), each the nearest-rank value of the samples ({@link Percentiles}). A series stops
 * at the last of these with p ≤ 1 − 1/n: beyond it every percentile is the slowest sample, so
 * the line would show the maximum, not the tail (n = 1000 samples reach 99.9%, 28 points).
 * Those points are a {@link PercentileTable}, which a run stores per metric when the metric
 * finishes, so drawing reads no sample.
 */
public final class PercentilePlot {

    private static final int DECADES = 4;

    private PercentilePlot() {}

    /**
     * @param label shown in the legend
     * @param table the samples at the plot's percentiles
     */
    public record Series(String label, PercentileTable table) {

        /**
         * @param sortedNs the raw samples in ns, ascending, at least one
         * @throws IllegalArgumentException if there are no samples or they are not ascending
         */
        public Series(String label, long[] sortedNs) {
            this(label, table(label, sortedNs));
        }

        private static PercentileTable table(String label, long[] sortedNs) {
            if (sortedNs.length == 0) {
                throw new IllegalArgumentException("series '" + label + "' has no samples");
            }
            Percentiles.requireSorted(sortedNs);
            return PercentileTable.of(sortedNs);
        }
    }

    /**
     * One plotted point.
     *
     * @param percentile 0 to 99.99
     * @param ns the nearest-rank value at that percentile
     */
    public record Point(double percentile, long ns) {}

    /**
     * @param title the plot's heading and accessible name
     * @param series one or more; colours follow their order
     * @return a standalone {@code <svg>} element
     * @throws IllegalArgumentException if there are no series
     */
    public static String svg(String title, List<Series> series) {
        if (series.isEmpty()) {
            throw new IllegalArgumentException("a percentile plot needs at least one series");
        }
        List<List<Point>> points = series.stream().map(s -> points(s.table())).toList();
        double maxMs = points.stream().flatMap(List::stream).mapToLong(Point::ns).max().orElse(0) / 1e6;
        Chart chart = new Chart(title, description(series), "Percentile (logarithmic toward the tail)", ticks(),
                "Latency (ms)", maxMs);
        for (int i = 0; i < series.size(); i++) {
            String color = Chart.color(i);
            String label = series.get(i).label();
            StringBuilder line = new StringBuilder();
            StringBuilder markers = new StringBuilder();
            for (Point point : points.get(i)) {
                String x = Svg.px(chart.x(position(point.percentile())));
                String y = Svg.px(chart.y(point.ns() / 1e6));
                line.append(x).append(',').append(y).append(' ');
                markers.append("<circle cx=\"").append(x).append("\" cy=\"").append(y).append("\" r=\"2.5\" fill=\"")
                        .append(color).append("\">").append(Svg.title(label + ": p" + percentileLabel(point.percentile())
                                + " = " + milliseconds(point.ns()))).append("</circle>");
            }
            chart.add("<g class=\"line\" data-label=\"" + Svg.escape(label) + "\"><polyline fill=\"none\" stroke=\"" + color
                    + "\" stroke-width=\"2\" points=\"" + line.toString().trim() + "\"/>" + markers + "</g>");
            chart.legend("<line x1=\"0\" x2=\"12\" y1=\"0\" y2=\"0\" stroke=\"" + color + "\" stroke-width=\"3\"/>",
                    label + " (n=" + series.get(i).table().n() + ")");
        }
        return chart.render();
    }

    /**
     * The points of one series, in ascending percentile.
     *
     * @param sortedNs samples in ns, ascending, at least one
     */
    public static List<Point> points(long[] sortedNs) {
        return points(PercentileTable.of(sortedNs));
    }

    /** The points the table's samples resolve (p ≤ 1 − 1/n), in ascending percentile. */
    public static List<Point> points(PercentileTable table) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < table.resolved(); i++) {
            points.add(new Point(PercentileTable.GRID[i] / 100.0, table.values()[i]));
        }
        return points;
    }

    private static double position(double percentile) {
        return Math.log10(100 / (100 - percentile)) / DECADES;
    }

    private static List<Chart.Tick> ticks() {
        List<Chart.Tick> ticks = new ArrayList<>();
        for (double p : new double[] {0, 90, 99, 99.9, 99.99}) {
            ticks.add(new Chart.Tick(position(p), percentileLabel(p) + "%"));
        }
        return ticks;
    }

    private static String percentileLabel(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }

    private static String milliseconds(long ns) {
        return Svg.fixed(ns / 1e6, 3) + " ms";
    }

    private static String description(List<Series> series) {
        StringBuilder text = new StringBuilder("Latency in milliseconds against percentile, nearest-rank, x axis "
                + "logarithmic toward 99.99%; each line stops where its samples stop resolving the tail (p ≤ 1 − 1/n).");
        for (Series s : series) {
            PercentileTable table = s.table();
            text.append(' ').append(s.label()).append(": n=").append(table.n())
                    .append(", p50 ").append(milliseconds(table.at(50)))
                    .append(", p99 ").append(milliseconds(table.at(99)))
                    .append(", max ").append(milliseconds(table.max())).append('.');
        }
        return text.toString();
    }
}
