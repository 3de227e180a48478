package dev.spacebench.publish.export;

import dev.spacebench.metric.Kind;
import dev.spacebench.publish.Drift;
import dev.spacebench.publish.Paired;
import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.publish.RunReport;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunService;
import dev.spacebench.stats.Throughput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/** result.json ({@link ResultDocument}), built from a run's report and its stored figures. */
@Component
@Order(2)
public class ResultJson implements RunExporter {

    private final RunReportBuilder reports;
    private final RunService runs;
    private final JsonMapper mapper;
    private final Paired.Reader paired;

    public ResultJson(RunReportBuilder reports, RunService runs, JsonMapper mapper, Paired.Reader paired) {
        this.reports = reports;
        this.runs = runs;
        this.mapper = mapper;
        this.paired = paired;
    }

    @Override
    public String id() {
        return "result.json";
    }

    @Override
    public MediaType mediaType() {
        return MediaType.APPLICATION_JSON;
    }

    @Override
    public String description() {
        return "plan, environment, build and figures";
    }

    @Override
    public void write(long runId, ExportFile file, OutputStream out) throws IOException {
        List<MetricResult> results = runs.results(runId);
        RunReport report = reports.build(runId);
        out.write(mapper.writeValueAsBytes(of(report, results, read(runId, report, results))));
    }

    @Override
    public void writePublished(long runId, ExportFile file, OutputStream out, PublishedEnvironment published) throws IOException {
        List<MetricResult> results = runs.results(runId);
        RunReport report = reports.buildPublished(runId, published);
        out.write(mapper.writeValueAsBytes(of(report, results, read(runId, report, results))));
    }

    private Paired read(long runId, RunReport report, List<MetricResult> results) {
        return paired.read(runId, report.plan(), report.spaceSpec().channelsOrDefault(), results);
    }

    /** As {@link #of(RunReport, List, Paired)} without the comparisons (null). */
    public static ResultDocument of(RunReport report, List<MetricResult> results) {
        return of(report, results, null);
    }

    /** @param paired the run's comparisons; null leaves {@code comparisons} out */
    public static ResultDocument of(RunReport report, List<MetricResult> results, Paired paired) {
        List<ResultDocument.MetricFigures> metrics = results.stream().map(ResultJson::figures).toList();
        return new ResultDocument(ResultDocument.SCHEMA,
                new ResultDocument.RunInfo(report.id(), report.status(), report.kind(), report.createdAt(), report.startedAt(),
                        report.finishedAt(), report.failureReason(), report.sampleCount(), report.headline()),
                report.spaceSpec(), report.plan(), report.environmentDetail(), report.buildDetail(),
                ResultDocument.Definitions.current(), metrics, concurrency(report), comparisons(paired));
    }

    private static ResultDocument.Comparisons comparisons(Paired paired) {
        if (paired == null) {
            return null;
        }
        List<ResultDocument.Ratio> ratios = paired.figures().pairs().stream().map(p -> new ResultDocument.Ratio(p.kind(), p.channel(),
                p.metric(), p.against(), p.ratio(), p.lower(), p.upper(), 0.95, p.paired(), p.blocks(), p.method())).toList();
        Drift drift = paired.drift();
        ResultDocument.DriftCheck check = drift.isEmpty() ? null : new ResultDocument.DriftCheck(Drift.METHOD, drift.threshold(),
                drift.series().stream().map(s -> new ResultDocument.DriftSeries(s.metric(), s.blocks(), s.medians(), s.rho(), s.p(),
                        s.slopeNs(), s.moveNs(), s.movePercent(), s.p50Ci(), s.flagged())).toList());
        List<ResultDocument.Skipped> skipped = new java.util.TreeMap<>(paired.skipped()).entrySet().stream()
                .map(e -> new ResultDocument.Skipped(e.getKey(), e.getValue())).toList();
        return new ResultDocument.Comparisons(paired.interleaved(), ratios, check, skipped);
    }

    private static ResultDocument.Concurrency concurrency(RunReport report) {
        RunReport.Sweep sweep = report.sweep();
        if (sweep == null) {
            return null;
        }
        return new ResultDocument.Concurrency(sweep.levels(), sweep.hostCpus(), sweep.kneeMetric(), sweep.singleSpaceP99Ns(),
                sweep.kneeLevel(), sweep.knee(),
                sweep.rows().stream().map(r -> new ResultDocument.ConcurrencyRow(r.level(), r.metric(), r.id())).toList());
    }

    private static ResultDocument.MetricFigures figures(MetricResult r) {
        String kind = Kind.ofId(r.getMetric()).wireName();
        Double mibs = Throughput.mibPerSecondOrNull(r.getBytes(), r.getP50Ns());
        return new ResultDocument.MetricFigures(r.getMetric(), kind, r.getBytes(), r.getLane(), r.getN(), r.getWarmups(),
                r.getFailures(), r.getMinNs(), r.getP50Ns(), r.getP95Ns(), r.getP99Ns(), r.getMaxNs(), r.getMeanNs(),
                r.getStddevNs(), mibs, r.getIntervals(), r.getHistogram(),
                split(r),
                r.getLevel(), r.getFastestSpaceP50Ns(), r.getSlowestSpaceP50Ns(), r.getPerSecond(), r.getWallNs());
    }

    private static ResultDocument.Split split(MetricResult r) {
        if (r.getAgentP50Ns() == null) {
            return null;
        }
        return new ResultDocument.Split(r.getP50Ns(), r.getAgentP50Ns(), r.getRestP50Ns(), r.getTailP99Ns(), r.getTailN(),
                r.getTailAgentP50Ns(), r.getTailRestP50Ns(), r.getSlowestSplitNs(), r.getSlowestAgentNs(), r.getSlowestRestNs());
    }
}
