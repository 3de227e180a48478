package dev.spacebench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;
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
    private static final Pattern COLUMN = Pattern.compile("[a-z_]+");

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readOnly;

    public SampleRows(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = new JdbcTemplate(jdbc.getDataSource());
        this.jdbc.setFetchSize(FETCH_SIZE);
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
    }

    /** One row, read column by column in the order asked. */
    @FunctionalInterface
    public interface RowHandler {
        void row(ResultSet row) throws SQLException, IOException;
    }

    /**
     * Hands every sample of the run to {@code handler}, in the order taken.
     *
     * @param columns columns of the {@code sample} table, in the order the handler reads them
     * @throws IOException what the handler threw
     * @throws IllegalArgumentException for a column name that is not lower-case letters and underscores
     */
    public void forEach(long runId, List<String> columns, RowHandler handler) throws IOException {
        columns.forEach(c -> {
            if (!COLUMN.matcher(c).matches()) {
                throw new IllegalArgumentException("not a sample column: " + c);
            }
        });
        String sql = "select " + String.join(", ", columns) + " from sample where run_id = ? order by id";
        try {
            readOnly.executeWithoutResult(tx -> jdbc.execute((Connection connection) -> {
                boolean h2 = connection.getMetaData().getDatabaseProductName().equals("H2");
                // Without it H2 builds the whole result (spilling to a temp file) before the first row.
                lazy(connection, h2, true);
                try {
                    jdbc.query(sql, rs -> {
                        try {
                            handler.row(rs);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }, runId);
                } finally {
                    lazy(connection, h2, false);
                }
                return null;
            }));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The measured, successful samples of one metric in ns, ascending: what its figures are computed from. */
    public long[] measuredNs(long runId, String metric) {
        long[][] values = {new long[1024]};
        int[] n = {0};
        readOnly.executeWithoutResult(tx -> jdbc.query("select ns from sample where run_id = ? and metric = ? "
                + "and phase = 'measured' and ok = true", rs -> {
            if (n[0] == values[0].length) {
                values[0] = Arrays.copyOf(values[0], n[0] * 2);
            }
            values[0][n[0]++] = rs.getLong(1);
        }, runId, metric));
        long[] sorted = Arrays.copyOf(values[0], n[0]);
        Arrays.sort(sorted);
        return sorted;
    }

    private static void lazy(Connection connection, boolean h2, boolean on) throws SQLException {
        if (h2) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET LAZY_QUERY_EXECUTION " + (on ? "TRUE" : "FALSE"));
            }
        }
    }
}
