package dev.spacebench.stats;

import java.util.Arrays;

/**
 * A metric's samples at the round percentiles a percentile plot draws, kept so that the plot
 * never reads the samples again: every 10% to 90%, every 1% to 99%, every 0.1% to 99.9%, every
 * 0.01% to 99.99% (37 in all, {@link #GRID}), each the nearest-rank value ({@link Percentiles}),
 * with n and the slowest sample. Computed once when a metric finishes, from its sorted samples.
 *
 * @param n the samples it was computed from, at least 1
 * @param max the slowest sample, ns
 * @param values the nearest-rank value at each {@link #GRID} point, ns
 */
public record PercentileTable(int n, long max, long[] values) {

    /** The percentiles, in hundredths of a percent: 0, 1000, …, 9000, 9100, …, 9999. */
    public static final int[] GRID = grid();
    private static final int BASIS = 10_000;

    /**
     * @throws IllegalArgumentException if n &lt; 1 or there is not one value per grid point
     */
    public PercentileTable {
        if (n < 1) {
            throw new IllegalArgumentException("a percentile table needs at least one sample, n was " + n);
        }
        if (values.length != GRID.length) {
            throw new IllegalArgumentException("a percentile table has " + GRID.length + " values, had " + values.length);
        }
    }

    /**
     * @param sorted samples in ns, ascending, at least one
     * @throws IllegalArgumentException if there are none
     */
    public static PercentileTable of(long[] sorted) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("a percentile table needs at least one sample");
        }
        long[] values = new long[GRID.length];
        for (int i = 0; i < GRID.length; i++) {
            values[i] = Percentiles.of(sorted, GRID[i] / 100.0);
        }
        return new PercentileTable(sorted.length, sorted[sorted.length - 1], values);
    }

    /**
     * How many grid points the samples resolve: those with p ≤ 1 − 1/n. Beyond them every
     * percentile is the slowest sample, so a line would show the maximum, not the tail.
     */
    public int resolved() {
        int count = 0;
        // p ≤ 1 − 1/n, exactly: hundredths/10⁴ · n ≤ n − 1
        while (count < GRID.length && (long) GRID[count] * n <= (long) BASIS * (n - 1)) {
            count++;
        }
        return Math.max(count, 1);
    }

    /** @param percentile one of the grid's, e.g. 50 or 99.9 */
    public long at(double percentile) {
        int hundredths = (int) Math.round(percentile * 100);
        for (int i = 0; i < GRID.length; i++) {
            if (GRID[i] == hundredths) {
                return values[i];
            }
        }
        throw new IllegalArgumentException(percentile + " is not a point of the table's grid");
    }

    /** "n;max;v0,v1,…": what the database stores. */
    public String encode() {
        StringBuilder text = new StringBuilder().append(n).append(';').append(max).append(';');
        for (int i = 0; i < values.length; i++) {
            text.append(i == 0 ? "" : ",").append(values[i]);
        }
        return text.toString();
    }

    /** @throws IllegalArgumentException if {@code text} is not what {@link #encode()} writes */
    public static PercentileTable decode(String text) {
        try {
            String[] parts = text.split(";", -1);
            long[] values = Arrays.stream(parts[2].split(",")).mapToLong(Long::parseLong).toArray();
            return new PercentileTable(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), values);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a stored percentile table: " + text, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PercentileTable t && t.n == n && t.max == max && Arrays.equals(t.values, values);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * n + Long.hashCode(max)) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return encode();
    }

    private static int[] grid() {
        int[] grid = new int[37];
        int at = 0;
        grid[at++] = 0;
        int start = 0;
        int step = 1000;
        for (int decade = 0; decade < 4; decade++) {
            for (int i = 1; i <= 9; i++) {
                grid[at++] = start + i * step;
            }
            start += 9 * step;
            step /= 10;
        }
        return grid;
    }
}
