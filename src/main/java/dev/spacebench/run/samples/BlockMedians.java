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
 * An interleaved run's block medians, read from its stored samples: per series (metric id) and
 * block (1..blocks), the nearest-rank median ({@link Percentiles}) of the block's measured,
 * successful samples. What a paired ratio ({@code stats.PairedRatio}) and the drift check pair
 * and plot. Samples without a block (a sequential run, the file loops, a sweep, older runs) are
 * left out, so a run without blocks reads as empty.
 */
@Component
public class BlockMedians {

    private final JdbcTemplate jdbc;

    BlockMedians(JdbcTemplate jdbc) {
        this.jdbc = new JdbcTemplate(jdbc.getDataSource());
        this.jdbc.setFetchSize(10_000);
    }

    /**
     * @return metric id → (block → median ns), blocks ascending; metrics in id order; empty when
     *     the run has no sample in a block
     */
    public Map<String, SortedMap<Integer, Long>> read(long runId) {
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
