package dev.spacebench.publish.export;

import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.run.MetricResult;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.springframework.http.MediaType;

/**
 * One download format of a run, hyperfine's way (one file a format behind one trait): a bean of
 * this type is all a new format needs. The REST exports ({@code GET /api/runs/{id}/…}), the run
 * page's download list, the run's links in its JSON and the command line's {@code --out} all
 * iterate over these beans, in {@link org.springframework.core.annotation.Order} order.
 */
public interface RunExporter {

    /** The format's name: its file name (e.g. {@code samples.csv}), or for one file per metric its extension ({@code hlog}). */
    String id();

    /** The Content-Type it is served with. */
    MediaType mediaType();

    /** What the file holds, one line for the page's download list, e.g. "every sample in ns". */
    String description();

    /** The format's full name where the file name alone does not say it, e.g. "Bencher Metric Format"; null otherwise. */
    default String title() {
        return null;
    }

    /**
     * The files of this format a run has, in order: one file named {@link #id()} unless the
     * format says otherwise (one per metric, none for a run without the data).
     *
     * @param results the run's stored figures, in page order
     */
    default List<ExportFile> files(long runId, List<MetricResult> results) {
        return List.of(ExportFile.of(id(), id(), null));
    }

    /**
     * Writes one file. Reads what the database stores, with memory bounded whatever the run's size.
     *
     * @param file one of {@link #files(long, List)} for this run
     * @throws IOException when {@code out} fails (the client went away); not closed here
     * @throws dev.spacebench.run.RunNotFoundException if there is no such run
     */
    void write(long runId, ExportFile file, OutputStream out) throws IOException;

    /**
     * As {@link #write}, for a published site: a file that shows the run's environment shows it as
     * {@code published} redacts it (no paths, pids or host name of the publisher's). The others are
     * written as they are.
     */
    default void writePublished(long runId, ExportFile file, OutputStream out, PublishedEnvironment published) throws IOException {
        write(runId, file, out);
    }
}
