package dev.spacebench.publish.plot;

import dev.spacebench.channel.Lane;
import dev.spacebench.plan.FileSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Throughput (MiB/s) by file size, as an SVG string (no script, no stylesheet): colour tells
 * upload from download, marker shape and line style tell the lane (stream: circle, solid line;
 * bulk: square, dashed line). The x axis is log₂ of the size with a tick at each size measured,
 * so 1, 4 and 16 MiB are evenly spaced; the y axis is linear from 0.
 */
public final class ThroughputPlot {

    /** Half a doubling of room at each end, so the outermost markers do not sit on the frame. */
    private static final double PAD_LOG2 = 0.5;

    private ThroughputPlot() {}

    /** Host to Space (upload) or Space to host (download). */
    public enum Direction {
        UPLOAD("upload"), DOWNLOAD("download");

        private final String label;

        Direction(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One measured size.
     *
     * @param bytes file size in bytes, &gt; 0
     * @param mibPerSecond throughput, ≥ 0 (e.g. from {@link dev.spacebench.stats.Throughput})
     */
    public record Point(Direction direction, Lane lane, long bytes, double mibPerSecond) {
        public Point {
            if (bytes <= 0) {
                throw new IllegalArgumentException("bytes must be positive, was " + bytes);
            }
            if (!(mibPerSecond >= 0) || Double.isInfinite(mibPerSecond)) {
                throw new IllegalArgumentException("mibPerSecond must be a finite number ≥ 0, was " + mibPerSecond);
            }
        }
    }

    /**
     * @param title the plot's heading and accessible name
     * @param points in any order
     * @return a standalone {@code <svg>} element
     * @throws IllegalArgumentException if there are no points
     */
    public static String svg(String title, List<Point> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a throughput plot needs at least one point");
        }
        List<Long> sizes = points.stream().map(Point::bytes).distinct().sorted().toList();
        double from = log2(sizes.get(0)) - PAD_LOG2;
        double span = log2(sizes.get(sizes.size() - 1)) + PAD_LOG2 - from;
        List<Chart.Tick> ticks = sizes.stream()
                .map(size -> new Chart.Tick((log2(size) - from) / span, sizeLabel(size))).toList();
        double max = points.stream().mapToDouble(Point::mibPerSecond).max().orElse(0);
        Chart chart = new Chart(title, description(points), "File size (logarithmic, base 2)", ticks, "Throughput (MiB/s)", max);

        for (Direction direction : Direction.values()) {
            for (Lane lane : Lane.values()) {
                List<Point> line = points.stream().filter(p -> p.direction() == direction && p.lane() == lane)
                        .sorted(Comparator.comparingLong(Point::bytes)).toList();
                if (!line.isEmpty()) {
                    chart.add(series(chart, line, from, span));
                }
            }
        }
        for (Direction direction : Direction.values()) {
            chart.legend("<line x1=\"0\" x2=\"12\" y1=\"0\" y2=\"0\" stroke=\"" + color(direction) + "\" stroke-width=\"3\"/>",
                    capitalized(direction.label()));
        }
        for (Lane lane : Lane.values()) {
            chart.legend(marker(lane, 6, 0, "#555555", "", ""), lane.wireName() + " lane");
        }
        return chart.render();
    }

    private static String series(Chart chart, List<Point> line, double from, double span) {
        Point first = line.get(0);
        String color = color(first.direction());
        StringBuilder polyline = new StringBuilder();
        StringBuilder markers = new StringBuilder();
        for (Point point : line) {
            double x = chart.x((log2(point.bytes()) - from) / span);
            double y = chart.y(point.mibPerSecond());
            polyline.append(Svg.px(x)).append(',').append(Svg.px(y)).append(' ');
            String data = " class=\"point\" data-direction=\"" + point.direction().label() + "\" data-lane=\""
                    + point.lane().wireName() + "\" data-bytes=\"" + point.bytes() + "\"";
            String tooltip = Svg.title(point.direction().label() + ", " + point.lane().wireName() + " lane, "
                    + sizeLabel(point.bytes()) + ": " + Svg.fixed(point.mibPerSecond(), 1) + " MiB/s");
            markers.append(marker(point.lane(), x, y, color, data, tooltip));
        }
        String dash = first.lane() == Lane.BULK ? " stroke-dasharray=\"6 4\"" : "";
        return "<g class=\"line\" data-direction=\"" + first.direction().label() + "\" data-lane=\"" + first.lane().wireName()
                + "\"><polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" + dash + " points=\""
                + polyline.toString().trim() + "\"/>" + markers + "</g>";
    }

    /** A circle for the stream lane, a square for the bulk lane, centred on (x, y). */
    private static String marker(Lane lane, double x, double y, String color, String attributes, String children) {
        return switch (lane) {
            case STREAM -> "<circle cx=\"" + Svg.px(x) + "\" cy=\"" + Svg.px(y) + "\" r=\"4.5\" fill=\"" + color + "\""
                    + attributes + ">" + children + "</circle>";
            case BULK -> "<rect x=\"" + Svg.px(x - 4) + "\" y=\"" + Svg.px(y - 4) + "\" width=\"8\" height=\"8\" fill=\"" + color
                    + "\"" + attributes + ">" + children + "</rect>";
        };
    }

    private static String color(Direction direction) {
        return Chart.color(direction.ordinal());
    }

    /** "1 MiB", "256 KiB", "1000 B": the plan's own size label with a space before the unit. */
    static String sizeLabel(long bytes) {
        return FileSize.label(bytes).replaceFirst("^(\\d+)", "$1 ");
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }

    private static String capitalized(String word) {
        return word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1);
    }

    private static String description(List<Point> points) {
        StringBuilder text = new StringBuilder("Throughput in MiB/s by file size, x axis logarithmic (base 2).");
        points.stream()
                .sorted(Comparator.comparing(Point::direction).thenComparing(Point::lane).thenComparingLong(Point::bytes))
                .forEach(p -> text.append(' ').append(capitalized(p.direction().label())).append(", ").append(p.lane().wireName())
                        .append(" lane, ").append(sizeLabel(p.bytes())).append(": ").append(Svg.fixed(p.mibPerSecond(), 1))
                        .append(" MiB/s."));
        return text.toString();
    }
}
