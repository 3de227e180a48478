package dev.spacebench.dashboard;

import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.InvalidRequestException;
import dev.spacebench.plan.FieldError;
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
     * Text → sizes; blank text is no sizes at all. Ranges are the plan validator's job; this
     * only reads.
     *
     * @throws InvalidRequestException on field {@value #FIELD}, naming each unreadable entry
     */
    static List<FileSize> parse(String text) {
        List<FileSize> sizes = new ArrayList<>();
        List<FieldError> errors = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return sizes;
        }
        String[] entries = text.split("[,\\n\\r]+");
        int position = 0;
        for (String raw : entries) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            position++;
            Matcher m = ENTRY.matcher(entry);
            if (!m.matches()) {
                errors.add(new FieldError(FIELD, "entry " + position + " '" + entry + "' must look like 4MiB:20 (size:iterations)"));
                continue;
            }
            Long multiplier = unit(m.group(2));
            if (multiplier == null) {
                errors.add(new FieldError(FIELD, "entry " + position + " '" + entry + "': unit must be B, KiB, MiB or GiB, was '"
                        + m.group(2) + "'"));
                continue;
            }
            try {
                long bytes = Math.multiplyExact(Long.parseLong(m.group(1)), multiplier);
                sizes.add(new FileSize(bytes, Integer.parseInt(m.group(3))));
            } catch (NumberFormatException | ArithmeticException e) {
                errors.add(new FieldError(FIELD, "entry " + position + " '" + entry + "' has a number too large to hold"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return sizes;
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
