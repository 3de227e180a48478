package dev.spacebench.publish.export;

import dev.spacebench.publish.RunReport;
import dev.spacebench.publish.RunReportBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/** The run's page as Markdown (GitHub-flavoured tables), section for section the same as the HTML page. */
@Component
@Order(3)
public class PageMarkdown implements RunExporter {

    private final RunReportBuilder reports;

    public PageMarkdown(RunReportBuilder reports) {
        this.reports = reports;
    }

    @Override
    public String id() {
        return "page.md";
    }

    @Override
    public MediaType mediaType() {
        return MediaType.parseMediaType("text/markdown;charset=UTF-8");
    }

    @Override
    public String description() {
        return "this page as Markdown";
    }

    @Override
    public void write(long runId, ExportFile file, OutputStream out) throws IOException {
        out.write(render(reports.build(runId)).getBytes(StandardCharsets.UTF_8));
    }

    public static String render(RunReport r) {
        StringBuilder md = new StringBuilder();
        List<String> notes = new ArrayList<>();
        md.append("# ").append(r.title()).append("\n\n");
        md.append(r.headline()).append("\n\n");
        md.append("Run ").append(r.id()).append(" · ").append(r.status()).append(" · ").append(r.kind())
                .append(" Space · wall time ").append(r.wallTime()).append(" · ").append(r.sampleCount()).append(" samples\n\n");
        if (r.failureReason() != null) {
            md.append("Why it stopped: ").append(r.failureReason()).append("\n\n");
        }
        if (r.failedSamples() > 0) {
            md.append("Failed: ").append(r.failedSamples()).append(" measured iteration(s) (").append(r.failedByMetric())
                    .append("); not in the figures, listed with their errors in samples.csv.\n\n");
        }

        md.append("## Results\n\n");
        if (!r.exec().isEmpty()) {
            md.append("### Command round trips\n\n");
            md.append("| round trip | p50 | p95 | p99 | slowest | samples | warm-ups | failed |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (RunReport.ExecRow row : r.exec()) {
                md.append("| ").append(cell(row.label())).append(" | ").append(figure(row.p50(), notes)).append(" | ")
                        .append(figure(row.p95(), notes)).append(" | ").append(figure(row.p99(), notes)).append(" | ")
                        .append(row.slowest().text()).append(" | ").append(row.n()).append(" | ").append(row.warmups())
                        .append(" | ").append(row.failures()).append(" |\n");
            }
            md.append('\n');
            r.aboveFloor().forEach(line -> md.append("- ").append(line).append('\n'));
            if (!r.aboveFloor().isEmpty()) {
                md.append('\n');
            }
        }
        if (!r.files().isEmpty()) {
            md.append("### File transfers\n\n");
            md.append("| size | lane | n | upload p50 | upload MiB/s | download p50 | download MiB/s | failed |\n");
            md.append("|---:|---|---:|---:|---:|---:|---:|---:|\n");
            for (RunReport.FileRow row : r.files()) {
                md.append("| ").append(row.size()).append(" | ").append(row.lane()).append(" | ")
                        .append(row.uploadN() == row.downloadN() ? Integer.toString(row.uploadN()) : row.uploadN() + " / " + row.downloadN())
                        .append(" | ").append(figure(row.uploadP50(), notes)).append(" | ").append(row.uploadMibPerSecondText())
                        .append(" | ").append(figure(row.downloadP50(), notes)).append(" | ").append(row.downloadMibPerSecondText())
                        .append(" | ").append(row.failures()).append(" |\n");
            }
            md.append('\n');
        }
        if (!r.space().isEmpty()) {
            md.append("### Space\n\n");
            md.append("| | time | samples |\n|---|---:|---:|\n");
            for (RunReport.SpaceRow row : r.space()) {
                md.append("| ").append(cell(row.label())).append(" | ").append(row.p50().text()).append(" | ")
                        .append(row.n()).append(" |\n");
            }
            md.append('\n');
        }

        if (!r.floor().isEmpty()) {
            md.append("### The floor: the host alone, measured in the same run\n\n");
            md.append("| what | p50 | p99 | samples |\n|---|---:|---:|---:|\n");
            for (RunReport.FloorRow row : r.floor()) {
                md.append("| ").append(cell(row.label())).append(" | ").append(figure(row.p50(), notes)).append(" | ")
                        .append(figure(row.p99(), notes)).append(" | ").append(row.n()).append(" |\n");
            }
            md.append('\n');
        }
        if (!notes.isEmpty()) {
            md.append("Figures show their 95% confidence interval (order-statistic, binomial method) in brackets.\n\n");
            for (int i = 0; i < notes.size(); i++) {
                md.append("[").append(i + 1).append("] ").append(notes.get(i)).append("  \n");
            }
            md.append('\n');
        }

        for (var plot : r.plots()) {
            md.append("![").append(cell(plot.title())).append("](").append(plot.url()).append(")\n\n");
        }

        section(md, "Method", r.method());
        section(md, "Caveats", r.caveats());

        md.append("## Environment and build\n\n| | |\n|---|---|\n");
        for (RunReport.Fact fact : r.environment()) {
            md.append("| ").append(cell(fact.label())).append(" | ").append(cell(fact.value())).append(" |\n");
        }
        for (RunReport.Fact fact : r.build()) {
            md.append("| ").append(cell(fact.label())).append(" | ").append(cell(fact.value())).append(" |\n");
        }
        md.append('\n');

        md.append("## Reproduce\n\n```sh\n");
        r.reproduce().forEach(line -> md.append(line).append('\n'));
        md.append("```\n\n");

        md.append("## Questions\n\n");
        for (RunReport.Question q : r.questions()) {
            md.append("**").append(q.question()).append("**  \n").append(q.answer()).append("\n\n");
        }

        md.append("## Downloads\n\n");
        for (RunReport.Download d : r.downloads().files()) {
            md.append("- [").append(d.name()).append("](").append(d.url()).append(")")
                    .append(d.title() == null ? "" : " (" + d.title() + ")").append('\n');
        }
        return md.toString();
    }

    /** "2.89 ms [2.80 ms – 3.01 ms]", with a numbered note where the interval needs one. */
    private static String figure(RunReport.Figure f, List<String> notes) {
        StringBuilder text = new StringBuilder(f.text());
        if (f.ci() != null) {
            text.append(" [").append(f.ci()).append("]");
        }
        if (f.note() != null) {
            int at = notes.indexOf(f.note());
            if (at < 0) {
                notes.add(f.note());
                at = notes.size() - 1;
            }
            text.append(" [").append(at + 1).append("]");
        }
        return cell(text.toString());
    }

    private static void section(StringBuilder md, String title, List<String> items) {
        md.append("## ").append(title).append("\n\n");
        items.forEach(item -> md.append("- ").append(item).append('\n'));
        md.append('\n');
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }
}
