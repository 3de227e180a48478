package dev.spacebench.publish.plot;

import java.util.Locale;

/** Text helpers for hand-written SVG: escaping and number formatting that ignore the JVM's locale. */
final class Svg {

    private Svg() {}

    /** Escapes text for element content and double-quoted attribute values. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A coordinate in px, one decimal. */
    static String px(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** A figure with a fixed number of decimals, always with a dot. */
    static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** A {@code <title>} child: the tooltip and accessible name of the element it sits in. */
    static String title(String text) {
        return "<title>" + escape(text) + "</title>";
    }
}
