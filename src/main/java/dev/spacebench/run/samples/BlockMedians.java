package dev.spacebench.run.samples;

import dev.spacebench.stats.Percentiles;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * An interleaved run's block medians: per series (metric id) and block (1..blocks), the
 * nearest-rank median ({@link Percentiles}) of the block's measured, successful samples. What a
 * paired ratio ({@code stats.PairedRatio}) and the drift check pair and plot. Computed from the
 * run's sample rows once, when its final figures are stored ({@link #store}, table
 * {@code block_median}), and read from there by pages, which never read samples. Samples without
 * a block (a sequential run, the file loops, a sweep) are left out, so a run without blocks, and
 * one stored before this table, reads as empty.
 */
@Component
public class BlockMedians {

    private final JdbcTemplate jdbc;

    BlockMedians(JdbcTemplate jdbc) {
        this.jdbc = new JdbcTemplate(jdbc.getDataSource());
        this.jdbc.setFetchSize(10_000);
    }

    /**
     * The run's stored block medians.
     *
     * @return metric id → (block → median ns), blocks ascending; metrics in id order; empty when
     *     none were stored (no blocks, a run still going, or one older than the table)
     */
    public Map<String, SortedMap<Integer, Long>> read(long runId) {
        Map<String, SortedMap<Integer, Long>> medians = new LinkedHashMap<>();
        jdbc.query("select metric, blocks, data from block_median where run_id = ? order by metric", rs -> {
            medians.put(rs.getString(1), decode(rs.getBytes(3), rs.getInt(2)));
        }, runId);
        return medians;
    }

    /**
     * Computes the run's block medians from its sample rows and replaces what is stored; in the
     * caller's transaction (the one that stores the run's final figures).
     */
    public void store(long runId) {
        Map<String, SortedMap<Integer, Long>> medians = fromSamples(runId);
        jdbc.update("delete from block_median where run_id = ?", runId);
        medians.forEach((metric, byBlock) -> jdbc.update("insert into block_median (run_id, metric, blocks, data) values (?, ?, ?, ?)",
                runId, metric, byBlock.size(), encode(byBlock)));
    }

    /** Each block: its number (4 bytes) then its median (8 bytes), big-endian, blocks ascending. */
    static byte[] encode(SortedMap<Integer, Long> byBlock) {
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(12 * byBlock.size());
        byBlock.forEach((block, median) -> out.putInt(block).putLong(median));
        return out.array();
    }

    static SortedMap<Integer, Long> decode(byte[] data, int blocks) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(data);
        SortedMap<Integer, Long> byBlock = new TreeMap<>();
        for (int i = 0; i < blocks; i++) {
            byBlock.put(in.getInt(), in.getLong());
        }
        return byBlock;
    }

    /** As {@link #read}, computed from the run's sample rows (one pass over its measured ones in a block). */
    public Map<String, SortedMap<Integer, Long>> fromSamples(long runId) {
        Map<String, Map<Integer, long[]>> values = new HashMap<>();
        Map<String, Map<Integer, Integer>> counts = new HashMap<>();
        jdbc.query("select metric, block, ns from sample where run_id = ? and phase = 'measured' and ok = true and block is not null",
                rs -> {
                    String metric = rs.getString(1);
                    int block = rs.getInt(2);
                    Map<Integer, long[]> byBlock = values.computeIfAbsent(metric, m -> new HashMap<>());
                    long[] array = byBlock.computeIfAbsent(block, b -> new long[16]);
                    int n = counts.computeIfAbsent(metric, m -> new HashMap<>()).merge(block, 1, Integer::sum);
                    if (n > array.length) {
                        array = Arrays.copyOf(array, array.length * 2);
                        byBlock.put(block, array);
                    }
                    array[n - 1] = rs.getLong(3);
                }, runId);
        Map<String, SortedMap<Integer, Long>> medians = new LinkedHashMap<>();
        values.keySet().stream().sorted().forEach(metric -> {
            Map<Integer, long[]> byBlock = new HashMap<>();
            values.get(metric).forEach((block, array) -> byBlock.put(block, Arrays.copyOf(array, counts.get(metric).get(block))));
            medians.put(metric, of(byBlock));
        });
        return medians;
    }

    /**
     * @param samplesByBlock block → its samples in ns (any order, not modified; a block with none is left out)
     * @return block → the nearest-rank median of its samples, blocks ascending
     */
    public static SortedMap<Integer, Long> of(Map<Integer, long[]> samplesByBlock) {
        SortedMap<Integer, Long> medians = new TreeMap<>();
        samplesByBlock.forEach((block, samples) -> {
            if (samples.length > 0) {
                long[] sorted = samples.clone();
                Arrays.sort(sorted);
                medians.put(block, Percentiles.of(sorted, 50));
            }
        });
        return medians;
    }
}
