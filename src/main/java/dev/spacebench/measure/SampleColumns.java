package dev.spacebench.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Samples held back on a measuring thread (a sweep's Space keeps its samples until the metric
 * ends), kept as primitive columns: about 33 bytes a sample, against about 150 as {@link Sample}
 * objects with their boxed agent time and metric id, and no object made per sample while the
 * loop runs. Errors are rare and kept by position. Not thread-safe: one thread adds, and replays
 * after that thread has stopped.
 */
final class SampleColumns {

    private static final long NO_AGENT_TIME = Long.MIN_VALUE;

    private final Integer level;
    private final Integer spaceIndex;
    private final List<String> metrics = new ArrayList<>();
    private final Map<Integer, String> errors = new HashMap<>();
    private int[] metric = new int[64];
    private int[] iteration = new int[64];
    private boolean[] measured = new boolean[64];
    private boolean[] ok = new boolean[64];
    private long[] ns = new long[64];
    private long[] bytes = new long[64];
    private long[] agentNs = new long[64];
    private int size;

    /** @param level and {@code spaceIndex}: what every sample replayed carries (null outside a sweep) */
    SampleColumns(Integer level, Integer spaceIndex) {
        this.level = level;
        this.spaceIndex = spaceIndex;
    }

    /** Keeps {@code s} under the id {@code metricId} (it replaces {@code s.metric()}). */
    void add(String metricId, Sample s) {
        if (size == ns.length) {
            grow();
        }
        int m = metrics.size() - 1;
        if (m < 0 || !metrics.get(m).equals(metricId)) {
            m = metrics.indexOf(metricId);
            if (m < 0) {
                metrics.add(metricId);
                m = metrics.size() - 1;
            }
        }
        metric[size] = m;
        iteration[size] = s.iteration();
        measured[size] = s.phase() == Phase.MEASURED;
        ok[size] = s.ok();
        ns[size] = s.ns();
        bytes[size] = s.bytes();
        agentNs[size] = s.agentNs() == null ? NO_AGENT_TIME : s.agentNs();
        if (s.error() != null) {
            errors.put(size, s.error());
        }
        size++;
    }

    int size() {
        return size;
    }

    /** Hands every sample kept to {@code to} as a {@link Sample}, in the order added. */
    void replay(Consumer<Sample> to) {
        for (int i = 0; i < size; i++) {
            to.accept(new Sample(metrics.get(metric[i]), iteration[i], measured[i] ? Phase.MEASURED : Phase.WARMUP, ns[i], bytes[i],
                    ok[i], errors.get(i), agentNs[i] == NO_AGENT_TIME ? null : agentNs[i], level, spaceIndex));
        }
    }

    private void grow() {
        int length = ns.length * 2;
        metric = Arrays.copyOf(metric, length);
        iteration = Arrays.copyOf(iteration, length);
        measured = Arrays.copyOf(measured, length);
        ok = Arrays.copyOf(ok, length);
        ns = Arrays.copyOf(ns, length);
        bytes = Arrays.copyOf(bytes, length);
        agentNs = Arrays.copyOf(agentNs, length);
    }
}
