package dev.spacebench.publish.export;

import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.Throughput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Bencher Metric Format (BMF) JSON: {@code {benchmark: {measure: {value, lower_value, upper_value}}}}.
 * Every exec, file and Space metric reports {@code latency} in ns: the p50 with its 95%
 * order-statistic interval as bounds. File metrics also report {@code throughput} in MiB/s at the
 * p50, bounded by the size over the interval's ends. Floor metrics are left out: they describe
 * the host, not the Space.
 */
public final class BencherMetricFormat {

    private BencherMetricFormat() {}

    /** @param intervals a result's stored intervals, keyed "p50", "p95", "p99" */
    public static Map<String, Map<String, Map<String, Double>>> of(List<MetricResult> results,
                                                                   Function<MetricResult, Map<String, PercentileInterval>> intervals) {
        Map<String, Map<String, Map<String, Double>>> bmf = new LinkedHashMap<>();
        for (MetricResult r : results) {
            if (r.getP50Ns() == null || r.getMetric().startsWith("floor.")) {
                continue;
            }
            PercentileInterval ci = intervals.apply(r).get("p50");
            Map<String, Map<String, Double>> measures = new LinkedHashMap<>();
            measures.put("latency", bounds(r.getP50Ns(), ci == null ? null : (double) ci.lowerNs(),
                    ci == null ? null : (double) ci.upperNs()));
            if (r.getBytes() > 0 && r.getP50Ns() > 0) {
                measures.put("throughput", bounds(Throughput.mibPerSecond(r.getBytes(), r.getP50Ns()),
                        ci == null || ci.upperNs() <= 0 ? null : Throughput.mibPerSecond(r.getBytes(), ci.upperNs()),
                        ci == null || ci.lowerNs() <= 0 ? null : Throughput.mibPerSecond(r.getBytes(), ci.lowerNs())));
            }
            bmf.put(r.getMetric(), measures);
        }
        return bmf;
    }

    private static Map<String, Double> bounds(double value, Double lower, Double upper) {
        Map<String, Double> measure = new LinkedHashMap<>();
        measure.put("value", value);
        if (lower != null) {
            measure.put("lower_value", lower);
        }
        if (upper != null) {
            measure.put("upper_value", upper);
        }
        return measure;
    }
}
