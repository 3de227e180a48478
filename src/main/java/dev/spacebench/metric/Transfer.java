package dev.spacebench.metric;

import dev.spacebench.plan.FileSize;
import dev.spacebench.stats.SignificantDigits;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file sent into the Space or fetched back: {@code file.upload.1MiB}, {@code file.download.4KiB}.
 * The size in the id is {@link FileSize#label}: the shortest exact binary unit.
 *
 * @param bytes the file's size, ≥ 0
 */
public record Transfer(Direction direction, long bytes) implements Metric {

    private static final String PREFIX = "file.";
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,19})(B|KiB|MiB|GiB)");

    /** Which way the file goes; {@link #wireName()} is its part of the id. */
    public enum Direction {
        UPLOAD, DOWNLOAD;

        /** "upload" or "download". */
        public String wireName() {
            return this == UPLOAD ? "upload" : "download";
        }
    }

    /** @throws IllegalArgumentException if direction is null or bytes < 0 */
    public Transfer {
        if (direction == null || bytes < 0) {
            throw new IllegalArgumentException("a transfer needs a direction and bytes ≥ 0, was " + direction + ", " + bytes);
        }
    }

    public static Transfer upload(long bytes) {
        return new Transfer(Direction.UPLOAD, bytes);
    }

    public static Transfer download(long bytes) {
        return new Transfer(Direction.DOWNLOAD, bytes);
    }

    /** "file.upload." or "file.download.": what every id of that direction starts with. */
    static String prefix(Direction direction) {
        return PREFIX + direction.wireName() + ".";
    }

    static Optional<Transfer> parse(String id) {
        for (Direction direction : Direction.values()) {
            String prefix = prefix(direction);
            if (id.startsWith(prefix)) {
                return bytesOf(id.substring(prefix.length())).map(bytes -> new Transfer(direction, bytes));
            }
        }
        return Optional.empty();
    }

    /** The bytes of a size label such as "16MiB", only when it is the label this model writes for them. */
    private static Optional<Long> bytesOf(String label) {
        Matcher m = SIZE.matcher(label);
        if (!m.matches()) {
            return Optional.empty();
        }
        int shift = switch (m.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            default -> 0;
        };
        long count;
        try {
            count = Long.parseLong(m.group(1));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
        if (count > (Long.MAX_VALUE >> shift)) {
            return Optional.empty();
        }
        long bytes = count << shift;
        return FileSize.label(bytes).equals(label) ? Optional.of(bytes) : Optional.empty();
    }

    @Override
    public String id() {
        return prefix(direction) + FileSize.label(bytes);
    }

    /** e.g. "upload 1 MiB", "download 1.50 MiB". */
    @Override
    public String label() {
        return direction.wireName() + " " + sizeText(bytes);
    }

    /** 1048576 → "1 MiB", 1572864 → "1.50 MiB", 4096 → "4 KiB", 1000 → "1000 B". */
    public static String sizeText(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 20) == 0) {
            return trim(bytes / (double) (1L << 30)) + " GiB";
        }
        if (bytes >= (1L << 20) && bytes % (1L << 10) == 0) {
            return trim(bytes / (double) (1L << 20)) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : SignificantDigits.three(value);
    }

    @Override
    public Kind kind() {
        return direction == Direction.UPLOAD ? Kind.UPLOAD : Kind.DOWNLOAD;
    }

    @Override
    public int group() {
        return 2;
    }

    /** By size, the upload before the download of the same size. */
    @Override
    public long rank() {
        return Math.min(bytes, Long.MAX_VALUE / 2) * 2 + direction.ordinal();
    }
}
