package dev.spacebench.publish.export;

import dev.spacebench.metric.Kind;
import dev.spacebench.publish.Drift;
import dev.spacebench.publish.Paired;
import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.publish.RunReport;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunService;
import dev.spacebench.stats.PairedRatio;
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

    public ResultJson(RunReportBuilder reports, RunService runs, JsonMapper mapper) {
        this.reports = reports;
        this.runs = runs;
        this.mapper = mapper;
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
        out.write(mapper.writeValueAsBytes(of(reports.build(runId), runs.results(runId))));
    }

    @Override
    public void writePublished(long runId, ExportFile file, OutputStream out, PublishedEnvironment published) throws IOException {
        out.write(mapper.writeValueAsBytes(of(reports.buildPublished(runId, published), runs.results(runId))));
    }

    /**
     * The document of a built report: its ratios, drift check and a comparison run's entries are the report's
     * ({@link RunReport#paired()}), so the page, page.md and result.json show the same figures.
     */
    public static ResultDocument of(RunReport report, List<MetricResult> results) {
        List<ResultDocument.MetricFigures> metrics = results.stream().map(ResultJson::figures).toList();
        Paired paired = report.paired();
        return new ResultDocument(ResultDocument.SCHEMA,
                new ResultDocument.RunInfo(report.id(), report.state().status(), report.kind(), report.times().createdAt(),
                        report.times().startedAt(), report.times().finishedAt(), report.state().failureReason(),
                        report.state().sampleCount(), report.headline()),
                report.setup().spaceSpec(), report.setup().plan(), report.setup().environmentDetail(), report.setup().buildDetail(),
                ResultDocument.Definitions.current(), metrics, concurrency(report),
                paired == null ? null : paired.comparison(), paired(paired));
    }

    private static ResultDocument.Paired paired(Paired paired) {
        if (paired == null) {
            return null;
        }
        List<ResultDocument.Ratio> ratios = paired.figures().pairs().stream().map(p -> new ResultDocument.Ratio(p.kind(), p.channel(),
                p.metric(), p.against(), p.ratio(), p.lower(), p.upper(), PairedRatio.DEFAULT_LEVEL, p.paired(), p.blocks(),
                p.method())).toList();
        Drift drift = paired.drift();
        ResultDocument.DriftCheck check = drift.isEmpty() ? null : new ResultDocument.DriftCheck(Drift.METHOD, drift.threshold(),
                drift.series().stream().map(s -> new ResultDocument.DriftSeries(s.metric(), s.blocks(), s.medians(), s.rho(), s.p(),
                        s.slopeNs(), s.moveNs(), s.movePercent(), s.p50Ci(), s.flagged())).toList());
        return new ResultDocument.Paired(paired.interleaved(), ratios, check);
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
        return new ResultDocument.MetricFigures(r.getMetric(), kind, r.getBytes(), r.getLane(),
                new ResultDocument.Counts(r.getN(), r.getWarmups(), r.getFailures()),
                new ResultDocument.Summary(r.getMinNs(), r.getP50Ns(), r.getP95Ns(), r.getP99Ns(), r.getMaxNs(), r.getMeanNs(),
                        r.getStddevNs(), mibs),
                r.getIntervals(), r.getHistogram(), split(r),
                new ResultDocument.LevelFigures(r.getLevel(), r.getFastestSpaceP50Ns(), r.getSlowestSpaceP50Ns(), r.getPerSecond(),
                        r.getWallNs()));
    }

    private static ResultDocument.Split split(MetricResult r) {
        if (r.getAgentP50Ns() == null) {
            return null;
        }
        return new ResultDocument.Split(r.getP50Ns(), r.getAgentP50Ns(), r.getRestP50Ns(), r.getTailP99Ns(), r.getTailN(),
                r.getTailAgentP50Ns(), r.getTailRestP50Ns(), r.getSlowestSplitNs(), r.getSlowestAgentNs(), r.getSlowestRestNs());
    }
}
