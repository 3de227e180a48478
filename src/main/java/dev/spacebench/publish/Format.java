package dev.spacebench.publish;

import dev.spacebench.metric.Transfer;
import dev.spacebench.stats.SignificantDigits;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How figures are written on pages and in Markdown: three significant digits and a unit. */
public final class Format {

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Format() {}

    /** ns → "850 ns", "215 µs", "2.89 ms", "1.23 s"; null → "—". */
    public static String duration(Long ns) {
        if (ns == null) {
            return "—";
        }
        if (ns < 1_000) {
            return ns + " ns";
        }
        // Thresholds sit where three-digit rounding would carry into the next unit (999.6 µs → 1.00 ms).
        if (ns < 999_500) {
            return significant(ns / 1e3) + " µs";
        }
        if (ns < 999_500_000) {
            return significant(ns / 1e6) + " ms";
        }
        return significant(ns / 1e9) + " s";
    }

    /** A difference in ns with its sign: "+310 µs", "−40.0 µs" (a minus sign, U+2212), "0 ns". */
    public static String signedDuration(long ns) {
        return (ns > 0 ? "+" : ns < 0 ? "\u2212" : "") + duration(Math.abs(ns));
    }

    /** ns → milliseconds with three significant digits and no unit, e.g. "2.89" or "0.215". */
    public static String millis(Long ns) {
        return ns == null ? "—" : significant(ns / 1e6);
    }

    /** MiB/s with three significant digits, e.g. "290"; null → "—". */
    public static String mibPerSecond(Double value) {
        return value == null ? "—" : significant(value);
    }

    /** 1048576 → "1 MiB", 4096 → "4 KiB", 1000 → "1000 B". */
    public static String bytes(long bytes) {
        return Transfer.sizeText(bytes);
    }

    /** Memory sizes: 25200000000 → "23.5 GiB". */
    public static String memory(long bytes) {
        if (bytes <= 0) {
            return "unknown";
        }
        return significant(bytes / (double) (1L << 30)) + " GiB";
    }

    public static String dateTime(Instant at) {
        return at == null ? "—" : DATE_TIME.format(at);
    }

    public static String date(Instant at) {
        return at == null ? "—" : DATE.format(at);
    }

    /** "2 min 5 s", "41 s", "850 ms". */
    public static String wall(Duration d) {
        if (d == null) {
            return "—";
        }
        long s = d.toSeconds();
        if (s >= 60) {
            return (s / 60) + " min " + (s % 60) + " s";
        }
        if (s >= 1) {
            return s + " s";
        }
        return d.toMillis() + " ms";
    }

    /**
     * Three significant digits, padded so the precision shows: 2.891 → "2.89", 2.8 → "2.80",
     * 215.3 → "215", 1234 → "1230", 0.02153 → "0.0215". Rounding: half-even.
     */
    public static String significant(double value) {
        return SignificantDigits.three(value);
    }
}
