package dev.spacebench.run.samples;

import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the figures need of a run's samples, kept as it goes: per metric, the counts of warm-ups
 * and failed iterations and the measured, successful times in a primitive array (8 bytes a
 * sample, no object per sample). The samples themselves are in the database.
 */
public final class MetricSamples {

    /** One metric's tally. */
    public static final class Tally {
        private long[] measured = new long[64];
        private int n;
        /** {@link #measured()} ascending, made when first asked for since the last sample (null: not made). */
        private long[] sorted;
        private int warmups;
        private int failures;
        /** Of the measured, successful samples that carry the agent's own time: that time, and ns minus it. */
        private long[] agent = new long[0];
        private long[] rest = new long[0];
        private int timed;
        /** A sweep's: the measured ok times of each Space by its index, and the level's wall time in ns (0: none). */
        private final java.util.TreeMap<Integer, long[]> bySpace = new java.util.TreeMap<>();
        private final java.util.Map<Integer, Integer> countBySpace = new java.util.HashMap<>();
        private long wallNs;

        private void add(Sample s) {
            if (s.phase() == Phase.WARMUP) {
                warmups++;
            } else if (!s.ok()) {
                failures++;
            } else {
                if (n == measured.length) {
                    measured = Arrays.copyOf(measured, n * 2);
                }
                measured[n++] = s.ns();
                sorted = null;
                if (s.spaceIndex() != null) {
                    int k = countBySpace.getOrDefault(s.spaceIndex(), 0);
                    long[] mine = bySpace.computeIfAbsent(s.spaceIndex(), i -> new long[16]);
                    if (k == mine.length) {
                        mine = Arrays.copyOf(mine, k * 2);
                        bySpace.put(s.spaceIndex(), mine);
                    }
                    mine[k] = s.ns();
                    countBySpace.put(s.spaceIndex(), k + 1);
                }
                if (s.agentNs() != null) {
                    if (timed == agent.length) {
                        agent = Arrays.copyOf(agent, Math.max(64, timed * 2));
                        rest = Arrays.copyOf(rest, agent.length);
                    }
                    agent[timed] = s.agentNs();
                    rest[timed++] = s.ns() - s.agentNs();
                }
            }
        }

        public int warmups() {
            return warmups;
        }

        public int failures() {
            return failures;
        }

        /** The agent's own times in ns of the measured, successful samples that carry one (a copy). */
        public long[] agentTimes() {
            return Arrays.copyOf(agent, timed);
        }

        /** For the same samples as {@link #agentTimes()}, round trip minus the agent's time, in ns (a copy). */
        public long[] restTimes() {
            return Arrays.copyOf(rest, timed);
        }

        /** A sweep's: each Space's measured ok times in ns by its index (copies); empty outside a sweep. */
        public java.util.SortedMap<Integer, long[]> bySpace() {
            java.util.TreeMap<Integer, long[]> copy = new java.util.TreeMap<>();
            bySpace.forEach((i, v) -> copy.put(i, Arrays.copyOf(v, countBySpace.get(i))));
            return copy;
        }

        /** A sweep's wall time for this metric at its level in ns; 0 when none was given. */
        public long wallNs() {
            return wallNs;
        }

        /** The measured, successful times in ns, in the order taken (a copy). */
        public long[] measured() {
            return Arrays.copyOf(measured, n);
        }

        /**
         * The measured, successful times in ns, ascending: sorted once however often the figures
         * are computed before the next sample (interim figures at each metric's end, the final
         * ones, the stored sorted samples). Shared: callers must not change it.
         */
        public long[] sorted() {
            if (sorted == null) {
                sorted = measured();
                Arrays.sort(sorted);
            }
            return sorted;
        }
    }

    private final Map<String, Tally> byMetric = new LinkedHashMap<>();

    public void add(Sample sample) {
        byMetric.computeIfAbsent(sample.metric(), m -> new Tally()).add(sample);
    }

    /** Records a sweep metric's wall time (see {@code MeasureListener#sweepWall}). */
    public void wall(String metric, long ns) {
        byMetric.computeIfAbsent(metric, m -> new Tally()).wallNs = ns;
    }

    /** Each metric's measured, successful times in ns, ascending ({@link Tally#sorted()}: not to be changed), in the order the metrics came. */
    public Map<String, long[]> sortedMeasured() {
        Map<String, long[]> sorted = new LinkedHashMap<>();
        byMetric.forEach((metric, tally) -> sorted.put(metric, tally.sorted()));
        return sorted;
    }

    /** The metrics with a sample, in the order they came. */
    public java.util.Set<String> metrics() {
        return java.util.Collections.unmodifiableSet(byMetric.keySet());
    }

    /** @return null when the metric has no sample at all */
    public Tally get(String metric) {
        return byMetric.get(metric);
    }

    public static MetricSamples of(List<Sample> samples) {
        MetricSamples all = new MetricSamples();
        samples.forEach(all::add);
        return all;
    }
}
