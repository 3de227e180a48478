package dev.spacebench.plan;

/** How a rejected value is echoed in an error message: quoted, and cut short so a huge input is not sent back. */
public final class Shown {

    /** Longest part of a value an error message repeats. */
    public static final int MAX_ECHO = 64;

    private Shown() {}

    /** e.g. {@code 'zzz'}, {@code null}, or {@code 'aaaa…' (10485760 characters)} */
    public static String quote(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value.toString();
        if (text.length() <= MAX_ECHO) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, MAX_ECHO) + "…' (" + text.length() + " characters)";
    }
}
