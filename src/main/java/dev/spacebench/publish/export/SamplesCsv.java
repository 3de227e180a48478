package dev.spacebench.publish.export;

import dev.spacebench.publish.PublishedEnvironment;
import dev.spacebench.run.RunService;
import dev.spacebench.run.samples.SampleRows;
import java.io.IOException;
import java.io.OutputStream;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * samples.csv: one row per sample, in the order taken (RFC 4180 quoting).
 *
 * <pre>metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry</pre>
 *
 * phase is "warmup" or "measured"; ns is the round-trip time; ok is true/false; error is empty
 * when ok; agent_ns is the agent's own time inside ns (exec: spawn to reap; files: its receive,
 * hash and rename, or read, hash and send), empty where the agent reports none (no-op, floor,
 * Space); level and space_index are a concurrency sweep's level (Spaces busy at once) and which of
 * them took the sample (1..level), both empty outside a sweep; channel is {@code agent} for the agent's
 * exec and file metrics, the channel for {@code via.<channel>.…} ones, else empty; block and seq are an interleaved
 * run's block of the series (1..blocks) and the sample's place in the run's interleaved part (1, 2, …
 * across all series), both empty in a sequential run and in runs stored before them. Columns are only ever appended.
 * Streamed from the database ({@link SampleRows#writeCsv}: text stored as the run went, then rows),
 * so its memory does not grow with the run.
 */
@Component
@Order(1)
public class SamplesCsv implements RunExporter {

    private final RunService runs;
    private final SampleRows rows;

    public SamplesCsv(RunService runs, SampleRows rows) {
        this.runs = runs;
        this.rows = rows;
    }

    @Override
    public String id() {
        return "samples.csv";
    }

    @Override
    public MediaType mediaType() {
        return MediaType.parseMediaType("text/csv;charset=UTF-8");
    }

    @Override
    public String description() {
        return "every sample in ns, warm-ups and failures marked";
    }

    @Override
    public void write(long runId, ExportFile file, OutputStream out) throws IOException {
        runs.get(runId);
        rows.writeCsv(runId, out);
    }

    /** The same rows, each sample's error text without the publisher's paths ({@link PublishedEnvironment#freeText}). */
    @Override
    public void writePublished(long runId, ExportFile file, OutputStream out, PublishedEnvironment published) throws IOException {
        rows.writeCsv(runId, out, published.freeText(runs.get(runId).getEnvironment()));
    }
}
