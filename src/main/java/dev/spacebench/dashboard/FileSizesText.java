package dev.spacebench.dashboard;

import dev.spacebench.plan.FileSize;
import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A plan's file sizes as one line of text, e.g. {@code 1MiB:20, 4MiB:20, 100MiB:10}: entries
 * separated by commas or line breaks, each {@code SIZE:N}. SIZE is a whole number with an
 * optional binary unit (B, KiB, MiB, GiB; no unit means bytes); N the measured iterations.
 */
final class FileSizesText {

    static final String FIELD = "fileSizes";
    private static final Pattern ENTRY = Pattern.compile("(\\d+)\\s*([A-Za-z]*)\\s*:\\s*(\\d+)");

    private FileSizesText() {}

    /** Sizes → text, with the shortest exact unit: "1MiB:20, 4MiB:20". */
    static String format(List<FileSize> sizes) {
        return sizes.stream().map(s -> FileSize.label(s.bytes()) + ":" + s.n()).collect(Collectors.joining(", "));
    }

    /**
     * One non-blank entry as typed.
     *
     * @param position 1-based, counting non-blank entries, as the user numbers them
     * @param size what it reads as; null when it cannot be read
     * @param problem why it cannot be read, quoting it (e.g. {@code '4MB:3': unit must be …}); null when readable
     */
    record Entry(int position, FileSize size, String problem) {}

    /** Text → every non-blank entry, readable or not, in the order typed; blank text has none. */
    static List<Entry> read(String text) {
        List<Entry> entries = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return entries;
        }
        int position = 0;
        for (String raw : text.split("[,\\n\\r]+")) {
            String entry = raw.strip();
            if (!entry.isEmpty()) {
                position++;
                entries.add(readEntry(position, entry));
            }
        }
        return entries;
    }

    /**
     * Text → sizes; blank text is no sizes at all. Ranges are the plan validator's job; this
     * only reads.
     *
     * @throws InvalidRequestException on field {@value #FIELD}, naming each unreadable entry
     */
    static List<FileSize> parse(String text) {
        List<Entry> entries = read(text);
        List<FieldError> errors = entries.stream().filter(e -> e.problem() != null)
                .map(e -> new FieldError(FIELD, "entry " + e.position() + " " + e.problem())).toList();
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return entries.stream().map(Entry::size).toList();
    }

    private static Entry readEntry(int position, String entry) {
        Matcher m = ENTRY.matcher(entry);
        if (!m.matches()) {
            return new Entry(position, null, "'" + entry + "' must look like 4MiB:20 (size:iterations)");
        }
        Long multiplier = unit(m.group(2));
        if (multiplier == null) {
            return new Entry(position, null, "'" + entry + "': unit must be B, KiB, MiB or GiB, was '" + m.group(2) + "'");
        }
        try {
            long bytes = Math.multiplyExact(Long.parseLong(m.group(1)), multiplier);
            return new Entry(position, new FileSize(bytes, Integer.parseInt(m.group(3))), null);
        } catch (NumberFormatException | ArithmeticException e) {
            return new Entry(position, null, "'" + entry + "' has a number too large to hold");
        }
    }

    private static Long unit(String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1L;
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            default -> null;
        };
    }
}
