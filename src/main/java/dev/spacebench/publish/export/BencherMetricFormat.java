package dev.spacebench.publish.export;

import dev.spacebench.metric.Metric;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunService;
import java.io.IOException;
import java.io.OutputStream;
import dev.spacebench.stats.PercentileInterval;
import dev.spacebench.stats.Throughput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bencher Metric Format (BMF) JSON: {@code {benchmark: {measure: {value, lower_value, upper_value}}}}.
 * Every exec, file and Space metric reports {@code latency} in ns: the p50 with its 95%
 * order-statistic interval as bounds. File metrics also report {@value #MIB_PER_SECOND}: MiB/s
 * (mebibytes, 2^20 bytes, per second) at the p50, bounded by the size over the interval's ends. It
 * is a measure of its own because Bencher's built-in {@code throughput} is operations per second;
 * Bencher creates it on the first upload, and its units (MiB/s) are set once in the project. An end
 * the samples cannot bound is omitted. Floor metrics are left out: they describe the host, not the
 * Space.
 */
@Component
@Order(4)
public class BencherMetricFormat implements RunExporter {

    /** The measure slug of file throughput, in MiB/s. */
    public static final String MIB_PER_SECOND = "mib-per-second";
    /** Bencher's built-in latency measure, in ns. */
    public static final String LATENCY = "latency";

    private final RunService runs;
    private final JsonMapper mapper;

    public BencherMetricFormat(RunService runs, JsonMapper mapper) {
        this.runs = runs;
        this.mapper = mapper;
    }

    @Override
    public String id() {
        return "bmf.json";
    }

    @Override
    public MediaType mediaType() {
        return MediaType.APPLICATION_JSON;
    }

    @Override
    public String title() {
        return "Bencher Metric Format";
    }

    @Override
    public String description() {
        return "Bencher Metric Format (p50 with its 95% CI as bounds)";
    }

    @Override
    public void write(long runId, ExportFile file, OutputStream out) throws IOException {
        runs.get(runId);
        out.write(mapper.writeValueAsBytes(of(runs.results(runId), MetricResult::getIntervals)));
    }

    /** @param intervals a result's stored intervals, keyed "p50", "p95", "p99" */
    public static Map<String, Map<String, Map<String, Double>>> of(List<MetricResult> results,
                                                                   Function<MetricResult, Map<String, PercentileInterval>> intervals) {
        Map<String, Map<String, Map<String, Double>>> bmf = new LinkedHashMap<>();
        for (MetricResult r : results) {
            if (r.getP50Ns() == null || Metric.isFloor(r.getMetric())) {
                continue;
            }
            PercentileInterval ci = intervals.apply(r).get("p50");
            Map<String, Map<String, Double>> measures = new LinkedHashMap<>();
            // An end the samples cannot bound at 95% (small n) is left out rather than faked with min or max.
            boolean lowerOk = ci != null && ci.lowerBounded() && r.getN() >= 2;
            boolean upperOk = ci != null && ci.upperBounded() && r.getN() >= 2;
            measures.put(LATENCY, bounds(r.getP50Ns(), lowerOk ? (double) ci.lowerNs() : null,
                    upperOk ? (double) ci.upperNs() : null));
            Double mibPerSecond = Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns());
            if (mibPerSecond != null) {
                // The slower end of the time is the lower end of the throughput.
                measures.put(MIB_PER_SECOND, bounds(mibPerSecond,
                        upperOk ? Throughput.mibPerSecondOrNull(r.getBytes(), ci.upperNs()) : null,
                        lowerOk ? Throughput.mibPerSecondOrNull(r.getBytes(), ci.lowerNs()) : null));
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
