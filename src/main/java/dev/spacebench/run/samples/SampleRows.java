package dev.spacebench.run.samples;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads a run's stored samples with memory bounded by one row, not by the run: plain JDBC rows
 * (no entity, no persistence context) from a cursor — a fetch size inside a read-only transaction
 * on PostgreSQL, lazy query execution on H2 — and primitive arrays where values are needed whole.
 */
@Component
public class SampleRows {

    private static final int FETCH_SIZE = 10_000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readOnly;
    private final SampleCsvPieces pieces;

    public SampleRows(JdbcTemplate jdbc, PlatformTransactionManager transactions, SampleCsvPieces pieces) {
        this.pieces = pieces;
        this.jdbc = new JdbcTemplate(jdbc.getDataSource());
        this.jdbc.setFetchSize(FETCH_SIZE);
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
    }

    /**
     * Writes the run's samples.csv ({@link SampleCsv}'s header and rows, every sample in the order
     * taken): the stored pieces as they are, then the rows after the last piece (a run still going,
     * or one whose app stopped before storing them) formatted one by one. Memory: one piece
     * (≈ 256 KiB) or one row, and a 64 KiB buffer.
     *
     * @throws IOException what writing to {@code out} threw
     */
    public void writeCsv(long runId, OutputStream out) throws IOException {
        CsvOut csv = new CsvOut(out);
        csv.ascii(SampleCsv.HEADER);
        csv.newline();
        long after = pieces.copy(runId, csv);
        try {
            readOnly.executeWithoutResult(tx -> jdbc.execute((Connection connection) -> {
                rows(connection, runId, after, SampleCsv.COLUMNS, rs -> {
                    if (rs.getLong(SampleCsv.COLUMN_COUNT + 1) != runId) {
                        return;
                    }
                    try {
                        SampleCsv.row(csv, rs);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                return null;
            }));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        csv.flush();
    }

    /**
     * As {@link #writeCsv(long, OutputStream)}, each sample's error text through {@code errors}
     * (a published site's redaction): every row formatted anew from the table, the stored pieces
     * left aside, since they hold the text as it was. Memory: one row and a 64 KiB buffer.
     */
    public void writeCsv(long runId, OutputStream out, UnaryOperator<String> errors) throws IOException {
        CsvOut csv = new CsvOut(out);
        csv.ascii(SampleCsv.HEADER);
        csv.newline();
        try {
            eachRow(runId, rs -> {
                try {
                    SampleCsv.row(csv, rs, errors);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        csv.flush();
    }

    /** The measured, successful samples of one metric in ns, ascending: what its figures are computed from. */
    public long[] measuredNs(long runId, String metric) {
        long[][] values = {new long[1024]};
        int[] n = {0};
        RowCallbackHandler add = rs -> {
            if (n[0] == values[0].length) {
                values[0] = Arrays.copyOf(values[0], n[0] * 2);
            }
            values[0][n[0]++] = rs.getLong(1);
        };
        readOnly.executeWithoutResult(tx -> jdbc.execute((Connection connection) -> {
            if (!h2(connection)) {
                jdbc.query("select ns from sample where run_id = ? and metric = ? and phase = 'measured' and ok = true",
                        add, runId, metric);
                return null;
            }
            rows(connection, runId, 0, "ns, metric, phase, ok", rs -> {
                if (rs.getLong(5) != runId || !rs.getBoolean(4) || !"measured".equals(rs.getString(3))
                        || !metric.equals(rs.getString(2))) {
                    return;
                }
                add.processRow(rs);
            });
            return null;
        }));
        long[] sorted = Arrays.copyOf(values[0], n[0]);
        Arrays.sort(sorted);
        return sorted;
    }

    /**
     * The measured, successful samples of every metric of the run in ns, each ascending, from one
     * pass over the run's rows (a comparison needs several metrics; a pass per metric read a
     * million-sample run once for each).
     *
     * @return metric id → its samples; a metric with none is absent
     */
    public Map<String, long[]> measuredNsByMetric(long runId) {
        Map<String, long[]> values = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        readOnly.executeWithoutResult(tx -> jdbc.execute((Connection connection) -> {
            boolean h2 = h2(connection);
            RowCallbackHandler add = rs -> {
                if (h2 && (rs.getLong(5) != runId || !rs.getBoolean(4) || !"measured".equals(rs.getString(3)))) {
                    return;
                }
                String metric = rs.getString(2);
                long[] array = values.computeIfAbsent(metric, m -> new long[1024]);
                int n = counts.merge(metric, 1, Integer::sum);
                if (n > array.length) {
                    array = Arrays.copyOf(array, array.length * 2);
                    values.put(metric, array);
                }
                array[n - 1] = rs.getLong(1);
            };
            if (h2) {
                rows(connection, runId, 0, "ns, metric, phase, ok", add);
            } else {
                jdbc.query("select ns, metric from sample where run_id = ? and phase = 'measured' and ok = true", add, runId);
            }
            return null;
        }));
        Map<String, long[]> sorted = new LinkedHashMap<>();
        values.forEach((metric, array) -> {
            long[] ns = Arrays.copyOf(array, counts.get(metric));
            Arrays.sort(ns);
            sorted.put(metric, ns);
        });
        return sorted;
    }

    /**
     * Hands {@code row} every row of the run, in id order (the order taken), as
     * {@code select COLUMNS, id} ({@link SampleCsv#COLUMNS}, then the row's id as column 11); only
     * the run's own rows. In the caller's transaction if there is one.
     */
    public void eachRow(long runId, RowCallbackHandler row) {
        readOnly.executeWithoutResult(tx -> jdbc.execute((Connection connection) -> {
            rows(connection, runId, 0, SampleCsv.COLUMNS + ", id", rs -> {
                if (rs.getLong(SampleCsv.COLUMN_COUNT + 2) == runId) {
                    row.processRow(rs);
                }
            });
            return null;
        }));
    }

    /**
     * Hands {@code row} every row of the run with an id above {@code afterId}, in id order, as
     * {@code select COLUMNS, run_id}; on H2
     * also rows of other runs whose ids fall among the run's, which the caller skips. On H2 it walks the
     * primary key from the run's first sample id to its last (only runs measured at the same time
     * interleave ids): the {@code (run_id, id)} index would
     * cost a primary-key lookup per row and H2 picks the {@code run_id} index instead and sorts the
     * whole run before the first row, several µs per row either way against about one here. On
     * PostgreSQL the {@code (run_id, id)} index walk is already in order and streams with the fetch size.
     */
    private void rows(Connection connection, long runId, long afterId, String columns, RowCallbackHandler row) throws SQLException {
        String select = "select " + columns + ", run_id from sample ";
        if (!h2(connection)) {
            jdbc.query(select + "where run_id = ? and id > ? order by id", row, runId, afterId);
            return;
        }
        // Hinted: unhinted, H2 walks the run_id index to its end for each bound.
        long[] range = jdbc.queryForObject("select (select id from sample use index (sample_run) where run_id = ? "
                + "order by run_id, id limit 1), (select id from sample use index (sample_run) where run_id = ? "
                + "order by run_id desc, id desc limit 1)", (rs, i) -> new long[] {rs.getLong(1), rs.wasNull() ? -1 : rs.getLong(2)},
                runId, runId);
        if (range == null || range[1] < 0) {
            return;
        }
        // Without it H2 builds the whole result (spilling to a temp file) before the first row.
        lazy(connection, true);
        try {
            jdbc.query(select + "where id between ? and ? order by id", row, Math.max(range[0], afterId + 1), range[1]);
        } finally {
            lazy(connection, false);
        }
    }

    private static boolean h2(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseProductName().equals("H2");
    }

    private static void lazy(Connection connection, boolean on) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET LAZY_QUERY_EXECUTION " + (on ? "TRUE" : "FALSE"));
        }
    }
}
