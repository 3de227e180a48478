package dev.spacebench.benchmark;

import dev.spacebench.publish.Format;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small SVG of a benchmark's p50 and p99 across its history, oldest on the left. The y axis is
 * logarithmic, so a p50 stays readable under a p99 many times larger and a change reads as the
 * same height whatever its size; it has one label and ticks at 1, 2 and 5 of each power of ten.
 */
final class HistoryPlot {

    private static final int WIDTH = 480;
    private static final int HEIGHT = 180;
    private static final int LEFT = 78;
    private static final int RIGHT = 40;
    private static final int TOP = 12;
    private static final int BOTTOM = 24;
    /** Room above the largest and below the smallest figure, as a factor. */
    private static final double MARGIN = 1.25;

    private HistoryPlot() {}

    /** @return the SVG, or null when no run of the history has a headline figure */
    static String svg(List<BenchmarkView.HistoryEntry> newestFirst) {
        List<BenchmarkView.HistoryEntry> runs = new ArrayList<>(newestFirst.stream().filter(e -> e.p50Ns() != null && e.p50Ns() > 0).toList());
        if (runs.isEmpty()) {
            return null;
        }
        java.util.Collections.reverse(runs);
        long max = runs.stream().mapToLong(e -> e.p99Ns() == null ? e.p50Ns() : Math.max(e.p50Ns(), e.p99Ns())).max().orElse(1);
        long min = runs.stream().mapToLong(BenchmarkView.HistoryEntry::p50Ns).min().orElse(1);
        Axis axis = new Axis(Math.log(min / MARGIN), Math.log(max * MARGIN), HEIGHT - TOP - BOTTOM);
        double plotW = WIDTH - LEFT - RIGHT;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"history-plot\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"p50 and p99 across the benchmark's runs, log scale\">");
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(HEIGHT - BOTTOM).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#888\"/>");
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(TOP).append("\" x2=\"").append(LEFT)
                .append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#888\"/>");
        for (long tick : ticks(min / MARGIN, max * MARGIN)) {
            double y = axis.y(tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT, y,
                    WIDTH - RIGHT, y));
            svg.append(text(LEFT - 4, y + 4, Format.duration(tick), "y-tick", "end"));
        }
        // The one y label, turned along the axis.
        svg.append(String.format(Locale.ROOT, "<text class=\"y-label\" x=\"0\" y=\"0\" font-size=\"11\" font-family=\"sans-serif\" "
                + "text-anchor=\"middle\" transform=\"translate(12 %.1f) rotate(-90)\">round trip (log scale)</text>", TOP + (HEIGHT - TOP - BOTTOM) / 2.0));
        line(svg, runs, axis, plotW, true, "#c0392b", "p99");
        line(svg, runs, axis, plotW, false, "#2c3e50", "p50");
        for (int i = 0; i < runs.size(); i++) {
            svg.append(text(x(i, runs.size(), plotW), HEIGHT - 6, "#" + runs.get(i).runId(), "x-tick", "middle"));
        }
        return svg.append("</svg>").toString();
    }

    /** Log scale: ns → y, from {@code lo} (bottom) to {@code hi} (top), both natural logs of ns. */
    private record Axis(double lo, double hi, double height) {
        double y(double ns) {
            return TOP + height * (1 - (Math.log(ns) - lo) / (hi - lo));
        }
    }

    /** 1, 2 and 5 times each power of ten between lo and hi, in ns. */
    static List<Long> ticks(double lo, double hi) {
        List<Long> ticks = new ArrayList<>();
        for (long decade = 1; decade <= hi && decade > 0; decade *= 10) {
            for (long step : new long[] {1, 2, 5}) {
                long tick = decade * step;
                if (tick >= lo && tick <= hi) {
                    ticks.add(tick);
                }
            }
        }
        return ticks;
    }

    private static void line(StringBuilder svg, List<BenchmarkView.HistoryEntry> runs, Axis axis, double plotW,
                             boolean p99, String colour, String label) {
        StringBuilder points = new StringBuilder();
        double lastY = 0;
        for (int i = 0; i < runs.size(); i++) {
            Long ns = p99 ? runs.get(i).p99Ns() : runs.get(i).p50Ns();
            if (ns == null || ns <= 0) {
                continue;
            }
            lastY = axis.y(ns);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(i, runs.size(), plotW), lastY));
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x(i, runs.size(), plotW),
                    lastY, colour));
        }
        svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                .append(points.toString().strip()).append("\"/>");
        svg.append(text(WIDTH - RIGHT + 6, lastY + 4, label, "series", "start"));
    }

    private static double x(int i, int count, double plotW) {
        return count == 1 ? LEFT + plotW / 2 : LEFT + plotW * i / (count - 1);
    }

    private static String text(double x, double y, String text, String type, String anchor) {
        return String.format(Locale.ROOT, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" font-family=\"sans-serif\" "
                + "text-anchor=\"%s\">%s</text>", type, x, y, anchor, text.replace("&", "&amp;").replace("<", "&lt;"));
    }
}
