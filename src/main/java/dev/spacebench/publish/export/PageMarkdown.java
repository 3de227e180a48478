package dev.spacebench.publish.export;

import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.publish.RunReport;
import dev.spacebench.publish.RunReportBuilder;
import dev.spacebench.publish.TextTemplates;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * The run's page as Markdown (GitHub-flavoured tables), section for section the same as the HTML
 * page: {@code templates/text/page.md.txt}, a Thymeleaf TEXT template. Its links are relative to
 * where page.md lies (samples.csv, plots/…, hlog/…), so they work both where the app serves it
 * ({@code /api/runs/{id}/page.md}) and in an exported folder that holds the same files.
 */
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

    @Override
    public void writePublished(long runId, ExportFile file, OutputStream out, PublishedEnvironment published) throws IOException {
        out.write(render(reports.buildPublished(runId, published)).getBytes(StandardCharsets.UTF_8));
    }

    /** The page as Markdown, its "Where the time went" from the report's own split, as the HTML page's. */
    public static String render(RunReport r) {
        return TextTemplates.render("page.md", Map.of("r", r.withRelativeLinks(), "s", r.figures().split(), "md", new Cells()));
    }

    /** Table cells for the template; numbers the confidence-interval notes in the order they appear. */
    public static final class Cells {
        private final List<String> notes = new ArrayList<>();

        /** "2.89 ms [2.80 ms – 3.01 ms]", with a numbered note where the interval needs one. */
        public String figure(RunReport.Figure f) {
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

        /** "1.43× [1.38× – 1.50×]"; an unpaired ratio without an interval, or one with too few blocks, says so. */
        public String ratio(dev.spacebench.publish.PairedFigures.Pair pair) {
            if (pair.ciText() != null) {
                return cell(pair.ratioText() + " [" + pair.ciText() + "]" + (pair.paired() ? "" : " unpaired"));
            }
            return cell(pair.ratioText() + (pair.paired() ? " (" + pair.blocks() + " blocks: too few to bound a 95% interval)"
                    : " (unpaired, no interval)"));
        }

        /** A Channels table cell: the figure and its ratio to the agent's, the channel's reason it skipped, or "not measured". */
        public String channelCell(dev.spacebench.publish.Channels.Cell c) {
            if (c.skipped() != null) {
                return cell("skipped: " + c.skipped());
            }
            if (c.notMeasured()) {
                return "not measured";
            }
            return cell(c.value()) + (c.pair() == null ? "" : " (× agent " + ratio(c.pair()) + ")");
        }

        /** The notes numbered so far, in order. */
        public List<String> getNotes() {
            return notes;
        }

        public String cell(String text) {
            return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
        }
    }
}
