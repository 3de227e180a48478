package dev.spacebench.baseline;

import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.Throughput;

/**
 * One metric's summary figures in a baseline. Times in ns; null where the source did not give it.
 *
 * @param mibPerSecond throughput at the p50 for file metrics, else null
 */
public record BaselineFigures(String metric, Integer n, Long p50Ns, Long p95Ns, Long p99Ns, Long slowestNs, Double mibPerSecond) {

    /** A run's stored figures for one metric; the result must have a p50. */
    public static BaselineFigures of(MetricResult r) {
        return new BaselineFigures(r.getMetric(), r.getN(), r.getP50Ns(), r.getP95Ns(), r.getP99Ns(), r.getMaxNs(),
                Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns()));
    }
}
