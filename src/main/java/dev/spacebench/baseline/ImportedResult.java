package dev.spacebench.baseline;

import dev.spacebench.metric.Metric;
import dev.spacebench.publish.export.ResultDocument;
import dev.spacebench.request.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a result.json that an import computes with, read with their JSON types checked
 * (the rest of the document is only shown, and a later v1 may add fields: they are ignored).
 *
 * @param schema must be {@value ResultDocument#SCHEMA}
 * @param metrics each metric's summary figures; those without a p50Ns (no measured sample) are skipped
 */
record ImportedResult(String schema, List<ImportedMetric> metrics) {

    /** Times in ns, each from 1; throughput in MiB/s, more than 0; any of them null where the export gave none. */
    record ImportedMetric(String metric, Integer n, Long p50Ns, Long p95Ns, Long p99Ns, Long slowestNs, Double mibPerSecond) {
    }

    /** @return every field out of its range, JSON paths under {@code body}; empty when the figures can be imported */
    List<FieldError> problems() {
        List<FieldError> errors = new ArrayList<>();
        if (schema == null) {
            errors.add(new FieldError("body.schema", "is required: must be one of [" + ResultDocument.SCHEMA + "]"));
        } else if (!schema.equals(ResultDocument.SCHEMA)) {
            errors.add(new FieldError("body.schema", "must be one of [" + ResultDocument.SCHEMA
                    + "] (the result.json schemas this version reads), was " + dev.spacebench.plan.Shown.quote(schema)));
        }
        if (metrics == null) {
            errors.add(new FieldError("body.metrics", "is required: a list of metrics, each like {\"metric\": \"exec.noop\", \"p50Ns\": 41000}"));
            return errors;
        }
        if (metrics.size() > BaselineService.MAX_IMPORTED_METRICS) {
            errors.add(new FieldError("body.metrics", "must have at most " + BaselineService.MAX_IMPORTED_METRICS
                    + " entries, had " + metrics.size()));
            return errors;
        }
        for (int i = 0; i < metrics.size(); i++) {
            check(errors, "body.metrics[" + i + "]", metrics.get(i));
        }
        return errors;
    }

    /** The figures to keep: each metric with a p50 that is not the floor's. Call on a result without {@link #problems()}. */
    List<BaselineFigures> figures() {
        return metrics.stream().filter(m -> m.p50Ns() != null && !Metric.isFloor(m.metric()))
                .map(m -> new BaselineFigures(m.metric(), m.n(), m.p50Ns(), m.p95Ns(), m.p99Ns(), m.slowestNs(), m.mibPerSecond()))
                .toList();
    }

    private static void check(List<FieldError> errors, String at, ImportedMetric m) {
        if (m == null) {
            errors.add(new FieldError(at, "must be an object like {\"metric\": \"exec.noop\", \"p50Ns\": 41000}"));
            return;
        }
        if (m.metric() == null || m.metric().isBlank()) {
            errors.add(new FieldError(at + ".metric", "is required: the metric's id, e.g. exec.noop"));
        } else if (m.metric().length() > BaselineService.MAX_METRIC_ID) {
            errors.add(new FieldError(at + ".metric", "must be at most " + BaselineService.MAX_METRIC_ID
                    + " characters, was " + m.metric().length()));
        }
        // A metric with no measured sample has n 0 and no times.
        int minN = m.p50Ns() == null ? 0 : 1;
        if (m.n() != null && m.n() < minN) {
            errors.add(new FieldError(at + ".n", "must be from " + minN + " to " + Integer.MAX_VALUE + " (measured samples), was " + m.n()));
        }
        Long previous = null;
        String previousName = null;
        String[] names = {"p50Ns", "p95Ns", "p99Ns", "slowestNs"};
        Long[] times = {m.p50Ns(), m.p95Ns(), m.p99Ns(), m.slowestNs()};
        for (int t = 0; t < times.length; t++) {
            Long time = times[t];
            if (time == null) {
                continue;
            }
            if (time < 1) {
                errors.add(new FieldError(at + "." + names[t], "must be from 1 to " + Long.MAX_VALUE + " (nanoseconds), was " + time));
            } else if (previous != null && time < previous) {
                errors.add(new FieldError(at + "." + names[t], "must be at least " + previousName + " (" + previous + "), was " + time));
            }
            if (time >= 1) {
                previous = time;
                previousName = names[t];
            }
        }
        if (m.p50Ns() == null && (m.p95Ns() != null || m.p99Ns() != null || m.slowestNs() != null)) {
            errors.add(new FieldError(at + ".p50Ns", "is required with p95Ns, p99Ns or slowestNs"));
        }
        if (m.mibPerSecond() != null && !(m.mibPerSecond() > 0 && Double.isFinite(m.mibPerSecond()))) {
            errors.add(new FieldError(at + ".mibPerSecond", "must be more than 0 (MiB/s), was " + m.mibPerSecond()));
        }
    }
}
