package dev.spacebench.channel.command;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One command of an operator-defined target: an argv (never a shell line) with placeholders, and
 * how long it may run before its process group is killed ({@link GroupCommand}).
 *
 * <p>Placeholders: {@value #ARGV} stands alone as a word and expands to the words of the command
 * being run, in place; {@value #ID}, {@value #LOCAL} and {@value #REMOTE} may sit inside a word
 * ({@code {id}:{remote}} for {@code podman cp}) and are replaced by their value, which is never
 * split or interpreted.
 *
 * @param argv the words, placeholders unexpanded
 * @param timeout more than 0
 */
public record CommandStep(List<String> argv, Duration timeout) {

    public static final String ID = "{id}";
    public static final String ARGV = "{argv}";
    public static final String LOCAL = "{local}";
    public static final String REMOTE = "{remote}";
    /** Every placeholder a target's command may hold. */
    public static final List<String> PLACEHOLDERS = List.of(ID, ARGV, LOCAL, REMOTE);
    /** What reads as a placeholder: braces around a name. Anything else in braces ({@code {}} of find) is left alone. */
    public static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z_][A-Za-z0-9_-]*}");

    public CommandStep {
        argv = List.copyOf(argv);
        if (argv.isEmpty() || timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a command needs at least one word and a timeout above 0");
        }
    }

    /** The placeholders the words hold, each once, in order. */
    public List<String> placeholders() {
        List<String> found = new ArrayList<>();
        for (String word : argv) {
            Matcher m = PLACEHOLDER.matcher(word);
            while (m.find()) {
                if (!found.contains(m.group())) {
                    found.add(m.group());
                }
            }
        }
        return found;
    }

    /**
     * The argv to run.
     *
     * @param values {@value #ID}, {@value #LOCAL}, {@value #REMOTE} → value (those the command uses)
     * @param command the words {@value #ARGV} stands for; empty when the command has none
     */
    public List<String> expand(Map<String, String> values, List<String> command) {
        List<String> expanded = new ArrayList<>();
        for (String word : argv) {
            if (word.equals(ARGV)) {
                expanded.addAll(command);
                continue;
            }
            Matcher m = PLACEHOLDER.matcher(word);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String value = values.get(m.group());
                if (value == null) {
                    throw new IllegalArgumentException("no value for " + m.group() + " in " + argv);
                }
                m.appendReplacement(out, Matcher.quoteReplacement(value));
            }
            m.appendTail(out);
            expanded.add(out.toString());
        }
        return expanded;
    }

    /** The words as a reader sees them, placeholders unexpanded: {@code podman exec {id} {argv}}. */
    public String shown() {
        return String.join(" ", argv.stream().map(w -> w.isEmpty() || w.matches(".*[\\s'\"\\\\$`].*") ? "'" + w.replace("'", "'\\''") + "'" : w)
                .toList());
    }
}
