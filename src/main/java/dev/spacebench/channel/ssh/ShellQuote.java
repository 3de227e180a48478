package dev.spacebench.channel.ssh;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An argv as one POSIX shell command line, which is what SSH carries: each word that holds only
 * characters no shell treats specially stays as it is ({@code true} stays {@code true}); any other
 * is put in single quotes, a single quote in it written {@code '\''}.
 */
final class ShellQuote {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%-]+");

    private ShellQuote() {}

    /** @throws IllegalArgumentException for an empty argv */
    static String join(List<String> argv) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv is empty");
        }
        return argv.stream().map(ShellQuote::quote).collect(Collectors.joining(" "));
    }

    static String quote(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
