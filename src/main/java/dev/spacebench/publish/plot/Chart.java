package dev.spacebench.publish.plot;

import java.util.ArrayList;
import java.util.List;

/**
 * The frame both plots share: a fixed-size SVG with an accessible title and description, a
 * linear y axis from 0 with "nice" ticks (steps of 1, 2 or 5 × 10^k), an x axis whose ticks the
 * plot places itself (both of ours are logarithmic), and a legend on the right. Series markup
 * is added in plot coordinates through {@link #x(double)} and {@link #y(double)}.
 */
final class Chart {

    static final int WIDTH = 860;
    static final int HEIGHT = 420;
    private static final int LEFT = 72;
    private static final int RIGHT = 250;
    private static final int TOP = 44;
    private static final int BOTTOM = 58;
    private static final int TARGET_Y_TICKS = 5;
    /** Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. */
    private static final String[] PALETTE = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

    /** An x tick at a fraction 0..1 of the axis' width. */
    record Tick(double fraction, String label) {}

    private final String title;
    private String description;
    private final String xTitle;
    private final List<Tick> xTicks;
    private final String yTitle;
    private final double yStep;
    private final double yTop;
    private final StringBuilder series = new StringBuilder();
    private final List<String> legend = new ArrayList<>();
    private final List<Integer> legendLines = new ArrayList<>();
    /** Characters of a legend line at font size 12 that fit right of the plot (≈ 6.6 px each in 212 px). */
    static final int LEGEND_CHARS = 30;
    private static final int LEGEND_LINE = 15;

    /** @param yMaxData the largest value to plot (y unit); the axis rounds it up to a tick */
    Chart(String title, String description, String xTitle, List<Tick> xTicks, String yTitle, double yMaxData) {
        this.title = title;
        this.description = description;
        this.xTitle = xTitle;
        this.xTicks = xTicks;
        this.yTitle = yTitle;
        this.yStep = niceStep(yMaxData > 0 ? yMaxData : 1);
        this.yTop = Math.max(1, Math.ceil(yMaxData / yStep)) * yStep;
    }

    static String color(int index) {
        return PALETTE[index % PALETTE.length];
    }

    /** @param fraction 0 at the left end of the x axis, 1 at the right */
    double x(double fraction) {
        return LEFT + fraction * (WIDTH - LEFT - RIGHT);
    }

    /** @param value in the y axis' unit, from 0 */
    double y(double value) {
        return HEIGHT - BOTTOM - value / yTop * (HEIGHT - TOP - BOTTOM);
    }

    void add(String markup) {
        series.append(markup).append('\n');
    }

    /** @param swatch markup drawn around (0, 0), placed before the label */
    void legend(String swatch, String label) {
        List<String> lines = wrap(label, LEGEND_CHARS);
        StringBuilder text = new StringBuilder("<text x=\"18\" y=\"4\">");
        for (int i = 0; i < lines.size(); i++) {
            // A trailing space keeps the words apart in the text's content (what a screen reader reads).
            String line = Svg.escape(lines.get(i)) + (i < lines.size() - 1 ? " " : "");
            text.append(i == 0 ? line : "<tspan x=\"18\" dy=\"" + LEGEND_LINE + "\">" + line + "</tspan>");
        }
        legend.add(swatch + text.append("</text>"));
        legendLines.add(lines.size());
    }

    /** The y axis' top value (a tick), in its unit. */
    double top() {
        return yTop;
    }

    /** As {@link #render()}, with a description known only once the series are drawn. */
    String render(String description) {
        this.description = description;
        return render();
    }

    String render() {
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append(Svg.title(title)).append('\n');
        svg.append("<desc>").append(Svg.escape(description)).append("</desc>\n");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        svg.append("<text x=\"").append(LEFT).append("\" y=\"24\" font-size=\"15\" font-weight=\"bold\">")
                .append(Svg.escape(title)).append("</text>\n");
        appendYAxis(svg);
        appendXAxis(svg);
        svg.append("<g class=\"series\">\n").append(series).append("</g>\n");
        appendLegend(svg);
        return svg.append("</svg>\n").toString();
    }

    private void appendYAxis(StringBuilder svg) {
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(yStep) + 1e-9));
        svg.append("<g class=\"y-axis\">\n");
        long steps = Math.round(yTop / yStep);
        for (long i = 0; i <= steps; i++) {
            double value = i * yStep;
            String y = Svg.px(y(value));
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(Svg.px(x(1))).append("\" y1=\"").append(y)
                    .append("\" y2=\"").append(y).append("\" stroke=\"").append(i == 0 ? "#333333" : "#dddddd").append("\"/>");
            svg.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(y)
                    .append("\" dy=\"0.35em\" text-anchor=\"end\">").append(Svg.fixed(value, decimals))
                    .append("</text>\n");
        }
        double middle = (TOP + HEIGHT - BOTTOM) / 2.0;
        svg.append("<text class=\"axis-title\" x=\"18\" y=\"").append(Svg.px(middle)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 18 ")
                .append(Svg.px(middle)).append(")\">").append(Svg.escape(yTitle)).append("</text>\n");
        svg.append("</g>\n");
    }

    private void appendXAxis(StringBuilder svg) {
        svg.append("<g class=\"x-axis\">\n");
        String bottom = Svg.px(y(0));
        for (Tick tick : xTicks) {
            String x = Svg.px(x(tick.fraction()));
            svg.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"").append(TOP).append("\" y2=\"")
                    .append(bottom).append("\" stroke=\"#eeeeee\"/>");
            svg.append("<text class=\"tick\" x=\"").append(x).append("\" y=\"").append(HEIGHT - BOTTOM + 18)
                    .append("\" text-anchor=\"middle\">").append(Svg.escape(tick.label())).append("</text>\n");
        }
        svg.append("<text class=\"axis-title\" x=\"").append(Svg.px(x(0.5))).append("\" y=\"").append(HEIGHT - 14)
                .append("\" text-anchor=\"middle\">").append(Svg.escape(xTitle)).append("</text>\n");
        svg.append("</g>\n");
    }

    private void appendLegend(StringBuilder svg) {
        svg.append("<g class=\"legend\">\n");
        int left = WIDTH - RIGHT + 20;
        int top = TOP + 10;
        for (int i = 0; i < legend.size(); i++) {
            svg.append("<g transform=\"translate(").append(left).append(' ').append(top).append(")\">")
                    .append(legend.get(i)).append("</g>\n");
            top += 22 + LEGEND_LINE * (legendLines.get(i) - 1);
        }
        svg.append("</g>\n");
    }

    /** Splits {@code text} at spaces into lines of at most {@code width} characters (a longer word keeps its own line). */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** The 1, 2 or 5 × 10^k step that cuts 0..max into about {@value #TARGET_Y_TICKS} parts. */
    private static double niceStep(double max) {
        double raw = max / TARGET_Y_TICKS;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double normalized = raw / magnitude;
        double nice = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10;
        return nice * magnitude;
    }
}
