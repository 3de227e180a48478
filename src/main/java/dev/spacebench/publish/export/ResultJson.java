package dev.spacebench.publish.export;

import dev.spacebench.metric.Kind;
import dev.spacebench.publish.RunReport;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunJson;
import dev.spacebench.stats.Throughput;
import java.util.List;

/** Builds result.json from a run's report and its stored figures. */
public final class ResultJson {

    private ResultJson() {}

    public static ResultDocument of(RunReport report, List<MetricResult> results, RunJson json) {
        List<ResultDocument.MetricFigures> metrics = results.stream().map(r -> figures(r, json)).toList();
        return new ResultDocument(ResultDocument.SCHEMA,
                new ResultDocument.RunInfo(report.id(), report.status(), report.kind(), report.createdAt(), report.startedAt(),
                        report.finishedAt(), report.failureReason(), report.sampleCount(), report.headline()),
                report.spaceSpec(), report.plan(), report.environmentDetail(), report.buildDetail(),
                ResultDocument.Definitions.current(), metrics);
    }

    private static ResultDocument.MetricFigures figures(MetricResult r, RunJson json) {
        String kind = Kind.ofId(r.getMetric()).wireName();
        Double mibs = Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns());
        return new ResultDocument.MetricFigures(r.getMetric(), kind, r.getBytes(), r.getLane(), r.getN(), r.getWarmups(),
                r.getFailures(), r.getMinNs(), r.getP50Ns(), r.getP95Ns(), r.getP99Ns(), r.getMaxNs(), r.getMeanNs(),
                r.getStddevNs(), mibs, json.intervals(r), r.getHistogram(),
                r.getAgentP50Ns() == null ? null : new ResultDocument.Split(r.getP50Ns(), r.getAgentP50Ns(), r.getRestP50Ns()));
    }
}
