package dev.spacebench.baseline;

/**
 * One metric's summary figures in a baseline. Times in ns; null where the source did not give it.
 *
 * @param mibPerSecond throughput at the p50 for file metrics, else null
 */
public record BaselineFigures(String metric, Integer n, Long p50Ns, Long p95Ns, Long p99Ns, Long slowestNs, Double mibPerSecond) {
}
