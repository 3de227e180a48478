package dev.spacebench.publish.export;

import dev.spacebench.run.RunService;
import dev.spacebench.run.SampleRows;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * samples.csv: one row per sample, in the order taken (RFC 4180 quoting).
 *
 * <pre>metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index</pre>
 *
 * phase is "warmup" or "measured"; ns is the round-trip time; ok is true/false; error is empty
 * when ok; agent_ns is the agent's own time inside ns (exec: spawn to reap; files: its receive,
 * hash and rename, or read, hash and send), empty where the agent reports none (no-op, floor,
 * Space); level and space_index are a concurrency sweep's level (Spaces busy at once) and which of
 * them took the sample (1..level), both empty outside a sweep. Columns are only ever appended. Streamed from the database row by row
 * ({@link SampleRows}), so its memory does not grow with the run.
 */
@Component
@Order(1)
public class SamplesCsv implements RunExporter {

    /** The columns in order: each is its header and the {@code sample} table column it reads. Add a column here only. */
    static final List<Column> COLUMNS = List.of(
            Column.text("metric"),
            Column.number("iteration"),
            Column.text("phase"),
            Column.number("ns"),
            Column.number("bytes"),
            Column.bool("ok"),
            Column.quoted("error"),
            Column.number("agent_ns"),
            Column.number("level"),
            Column.number("space_index"));

    public static final String HEADER = COLUMNS.stream().map(Column::name).collect(Collectors.joining(","));

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
        CsvOut csv = new CsvOut(out);
        csv.ascii(HEADER);
        csv.newline();
        rows.forEach(runId, COLUMNS.stream().map(Column::name).toList(), row -> {
            for (int i = 0; i < COLUMNS.size(); i++) {
                if (i > 0) {
                    csv.comma();
                }
                COLUMNS.get(i).write(row, i + 1, csv);
            }
            csv.newline();
        });
        csv.flush();
    }

    /** How one column's value is written. */
    enum Type { TEXT, NUMBER, BOOL, QUOTED }

    /**
     * @param name the CSV header and the database column
     */
    record Column(String name, Type type) {
        static Column text(String name) { return new Column(name, Type.TEXT); }
        static Column number(String name) { return new Column(name, Type.NUMBER); }
        static Column bool(String name) { return new Column(name, Type.BOOL); }
        static Column quoted(String name) { return new Column(name, Type.QUOTED); }

        /** A null number or text is written as nothing. */
        void write(ResultSet row, int index, CsvOut out) throws SQLException, IOException {
            switch (type) {
                case TEXT -> {
                    String text = row.getString(index);
                    if (text != null) {
                        out.utf8(text);
                    }
                }
                case NUMBER -> {
                    long value = row.getLong(index);
                    if (!row.wasNull()) {
                        out.number(value);
                    }
                }
                case BOOL -> out.ascii(row.getBoolean(index) ? "true" : "false");
                case QUOTED -> out.quoted(row.getString(index));
            }
        }
    }
}
