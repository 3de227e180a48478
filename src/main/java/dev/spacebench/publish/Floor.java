package dev.spacebench.publish;

import dev.spacebench.metric.FloorMetric;
import dev.spacebench.run.MetricResult;
import java.util.ArrayList;
import java.util.List;

/** The floor table (what the Space added above it is {@link Split.Added}, one figure per exec metric). */
final class Floor {

    private Floor() {}

    static List<RunReport.FloorRow> rows(List<MetricResult> results) {
        List<RunReport.FloorRow> rows = new ArrayList<>();
        for (FloorMetric metric : FloorMetric.values()) {
            RunReportBuilder.find(results, metric.id()).filter(r -> r.getP50Ns() != null).ifPresent(r -> rows.add(new RunReport.FloorRow(metric.id(),
                    metric.description(),
                    RunReport.Figure.of(r.getP50Ns(), r.getIntervals().get("p50"), "p50", r.getN()),
                    RunReport.Figure.of(r.getP99Ns(), r.getIntervals().get("p99"), "p99", r.getN()), r.getN())));
        }
        return rows;
    }
}
