package dev.spacebench.run;

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
final class MetricSamples {

    /** One metric's tally. */
    static final class Tally {
        private long[] measured = new long[64];
        private int n;
        private int warmups;
        private int failures;

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
            }
        }

        int warmups() {
            return warmups;
        }

        int failures() {
            return failures;
        }

        /** The measured, successful times in ns, in the order taken (a copy). */
        long[] measured() {
            return Arrays.copyOf(measured, n);
        }
    }

    private final Map<String, Tally> byMetric = new LinkedHashMap<>();

    void add(Sample sample) {
        byMetric.computeIfAbsent(sample.metric(), m -> new Tally()).add(sample);
    }

    /** @return null when the metric has no sample at all */
    Tally get(String metric) {
        return byMetric.get(metric);
    }

    static MetricSamples of(List<Sample> samples) {
        MetricSamples all = new MetricSamples();
        samples.forEach(all::add);
        return all;
    }
}
