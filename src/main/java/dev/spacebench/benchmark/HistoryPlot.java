package dev.spacebench.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small SVG of a benchmark's p50 and p99 across its history, oldest on the left; linear time
 * axis from 0 so that a change reads at its true size.
 */
final class HistoryPlot {

    private static final int WIDTH = 480;
    private static final int HEIGHT = 160;
    private static final int LEFT = 60;
    private static final int RIGHT = 90;
    private static final int TOP = 12;
    private static final int BOTTOM = 24;

    private HistoryPlot() {}

    /** @return the SVG, or null when no run of the history has a headline figure */
    static String svg(List<BenchmarkView.HistoryEntry> newestFirst) {
        List<BenchmarkView.HistoryEntry> runs = new ArrayList<>(newestFirst.stream().filter(e -> e.p50Ns() != null).toList());
        if (runs.isEmpty()) {
            return null;
        }
        java.util.Collections.reverse(runs);
        long max = runs.stream().mapToLong(e -> e.p99Ns() == null ? e.p50Ns() : e.p99Ns()).max().orElse(1);
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"history-plot\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"p50 and p99 across the benchmark's runs\">");
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(HEIGHT - BOTTOM).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#888\"/>");
        svg.append(text(4, TOP + 8, ms(max))).append(text(4, HEIGHT - BOTTOM, "0 ms"));
        line(svg, runs, max, plotW, plotH, true, "#c0392b", "p99");
        line(svg, runs, max, plotW, plotH, false, "#2c3e50", "p50");
        for (int i = 0; i < runs.size(); i++) {
            svg.append(text(x(i, runs.size(), plotW) - 10, HEIGHT - 6, "#" + runs.get(i).runId()));
        }
        return svg.append("</svg>").toString();
    }

    private static void line(StringBuilder svg, List<BenchmarkView.HistoryEntry> runs, long max, double plotW, double plotH,
                             boolean p99, String colour, String label) {
        StringBuilder points = new StringBuilder();
        double lastY = 0;
        for (int i = 0; i < runs.size(); i++) {
            Long ns = p99 ? runs.get(i).p99Ns() : runs.get(i).p50Ns();
            if (ns == null) {
                continue;
            }
            lastY = TOP + plotH - plotH * ns / max;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(i, runs.size(), plotW), lastY));
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x(i, runs.size(), plotW),
                    lastY, colour));
        }
        svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" points=\"")
                .append(points.toString().strip()).append("\"/>");
        svg.append(text(WIDTH - RIGHT + 8, lastY + 4, label));
    }

    private static double x(int i, int count, double plotW) {
        return count == 1 ? LEFT + plotW / 2 : LEFT + plotW * i / (count - 1);
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
    }

    private static String text(double x, double y, String text) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" font-family=\"sans-serif\">%s</text>", x, y,
                text.replace("&", "&amp;").replace("<", "&lt;"));
    }
}
