package dev.spacebench.agent;

/**
 * Client input as the agent quotes it back in a status message: at most {@link #MAX_CHARS}
 * characters. gRPC carries the message in a trailer, and a trailer over the peer's metadata limit
 * (8 KiB by default) turns the status into RESOURCE_EXHAUSTED, hiding what was wrong.
 */
final class ClientText {

    static final int MAX_CHARS = 100;

    private ClientText() {}

    /** {@code 'text'}, or {@code 'first 100 chars…' (N chars)} when longer. */
    static String quote(String text) {
        if (text == null) {
            return "''";
        }
        if (text.length() <= MAX_CHARS) {
            return "'" + text + "'";
        }
        return "'" + text.substring(0, MAX_CHARS) + "…' (" + text.length() + " chars)";
    }
}
