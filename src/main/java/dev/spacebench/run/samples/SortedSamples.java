package dev.spacebench.run.samples;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Each metric's measured, successful samples in ns, ascending, stored with the run's final
 * figures (table {@code sorted_samples}), so that a comparison reads one value per metric instead
 * of every row of the run: at a million samples a side, reading the rows was most of its cost.
 *
 * <p>Encoding: the smallest value as a zig-zag varint, then each difference from the value before
 * (never negative, as the values are sorted) as an unsigned varint; a varint is the value's 7-bit
 * groups, least significant first, the high bit set on every byte but the last (the LEB128 /
 * Protocol Buffers varint, protobuf.dev/programming-guides/encoding). Round trips that sit within
 * a few hundred ns of each other take one or two bytes a sample.
 */
@Component
public class SortedSamples {

    private final JdbcTemplate jdbc;
    private final BlockMedians blockMedians;

    SortedSamples(JdbcTemplate jdbc, BlockMedians blockMedians) {
        this.jdbc = jdbc;
        this.blockMedians = blockMedians;
    }

    /**
     * Replaces the run's stored samples, and with them its block medians ({@link BlockMedians#store},
     * from its sample rows: every caller stores a run's final figures here, once its samples are
     * written); in the caller's transaction. {@code byMetric}: metric → samples, ascending.
     */
    public void replace(long runId, Map<String, long[]> byMetric) {
        blockMedians.store(runId);
        jdbc.update("delete from sorted_samples where run_id = ?", runId);
        byMetric.forEach((metric, sorted) -> {
            if (sorted.length > 0) {
                jdbc.update("insert into sorted_samples (run_id, metric, n, data) values (?, ?, ?, ?)", runId, metric, sorted.length,
                        encode(sorted));
            }
        });
    }

    /**
     * @return metric → its measured, successful samples in ns, ascending; empty when none were
     *     stored (a run still going, or ended by another app, or older than this table)
     */
    public Map<String, long[]> read(long runId) {
        Map<String, long[]> byMetric = new LinkedHashMap<>();
        jdbc.query("select metric, n, data from sorted_samples where run_id = ? order by metric",
                rs -> {
                    byMetric.put(rs.getString(1), decode(rs.getBytes(3), rs.getInt(2)));
                }, runId);
        return byMetric;
    }

    /**
     * As {@link #read(long)}, only for the metrics named (a page reads the few it compares, not a
     * sweep's every level).
     *
     * @return metric → its samples, ascending; a metric with none stored is absent
     */
    public Map<String, long[]> read(long runId, java.util.Collection<String> metrics) {
        Map<String, long[]> byMetric = new LinkedHashMap<>();
        for (String metric : metrics) {
            jdbc.query("select n, data from sorted_samples where run_id = ? and metric = ?",
                    rs -> {
                        byMetric.put(metric, decode(rs.getBytes(2), rs.getInt(1)));
                    }, runId, metric);
        }
        return byMetric;
    }

    /**
     * @param sorted values, ascending
     * @return the encoding described above
     * @throws IllegalArgumentException if the values are not ascending
     */
    static byte[] encode(long[] sorted) {
        byte[] out = new byte[Math.max(16, sorted.length * 2)];
        int at = 0;
        long previous = 0;
        for (int i = 0; i < sorted.length; i++) {
            long value;
            if (i == 0) {
                value = (sorted[0] << 1) ^ (sorted[0] >> 63);
            } else {
                value = sorted[i] - previous;
                if (sorted[i] < previous) {
                    throw new IllegalArgumentException("not ascending at index " + i + ": " + previous + " then " + sorted[i]);
                }
            }
            previous = sorted[i];
            if (out.length - at < 10) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            while ((value & ~0x7FL) != 0) {
                out[at++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            out[at++] = (byte) value;
        }
        return Arrays.copyOf(out, at);
    }

    /**
     * @param n how many values {@code data} holds
     * @throws IllegalArgumentException if {@code data} ends before n values
     */
    static long[] decode(byte[] data, int n) {
        long[] values = new long[n];
        int at = 0;
        long previous = 0;
        for (int i = 0; i < n; i++) {
            long value = 0;
            int shift = 0;
            byte b;
            do {
                if (at == data.length) {
                    throw new IllegalArgumentException("stored samples end after " + i + " of " + n + " values");
                }
                b = data[at++];
                value |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            previous = i == 0 ? (value >>> 1) ^ -(value & 1) : previous + value;
            values[i] = previous;
        }
        return values;
    }
}
