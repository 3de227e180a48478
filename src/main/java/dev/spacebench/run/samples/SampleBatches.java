package dev.spacebench.run.samples;

import dev.spacebench.run.RunStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes a worker's batches of samples with plain JDBC, each in its own transaction with the run's
 * row locked: the same rows, ids and checks the JPA repository's {@code saveAll} gave, without
 * Hibernate. Why: the batches are written on the measuring thread between iterations, and measured
 * in an exec loop (issue 10) Hibernate's per-entity work kept the app's C2 compiling Hibernate and
 * H2 code during the loops, next to the Space on a small host.
 *
 * <p>Ids come from {@code sample_seq} (INCREMENT BY 500) as Hibernate's pooled optimizer takes them
 * ({@link Ids}), so rows written here and by JPA elsewhere (tests, older apps of a fleet sharing a
 * PostgreSQL) never collide, and a run's ids rise in the order its samples were taken.
 */
@Component
public class SampleBatches {

    /** {@code sample_seq}'s increment (V1): each value it returns stands for this many ids. */
    static final int ID_BLOCK = 500;
    private static final String INSERT = "insert into sample (id, run_id, " + SampleCsv.COLUMNS + ") values (?, ?"
            + ", ?".repeat(SampleCsv.COLUMN_COUNT) + ")";

    private final JdbcTemplate jdbc;
    private final SampleCsvPieces pieces;
    private final TransactionTemplate transactions;
    private final boolean postgres;
    private final SkippedMetrics skipped;

    SampleBatches(DataSource dataSource, JdbcTemplate jdbc, SampleCsvPieces pieces, SkippedMetrics skipped) {
        this.jdbc = jdbc;
        this.skipped = skipped;
        this.pieces = pieces;
        // Plain JDBC transactions on the app's pool: JdbcTemplate and SampleCsvPieces join them.
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.postgres = Boolean.TRUE.equals(jdbc.execute((ConnectionCallback<Boolean>) SampleBatches::isPostgres));
    }

    /**
     * Stores that the run's loops skipped {@code metric}, which its channel cannot do, for
     * {@code reason} ({@link SkippedMetrics}): no sample carries it, and the page shows it.
     */
    public void skipped(long runId, String metric, String reason) {
        skipped.record(runId, metric, reason);
    }

    private static boolean isPostgres(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseProductName().equals("PostgreSQL");
    }

    /**
     * The ids one writer (a run's recorder) hands out, in ranges of {@code sample_seq}: a value v
     * stands for v − 499 … v, except the sequence's first value 1, which Hibernate's pooled
     * optimizer takes with the next one (1 … 501); the same here, so both share the sequence.
     * Not thread-safe: one per recorder.
     */
    public final class Ids {
        private long next = 1;
        private long last = 0;

        long next() {
            if (next > last) {
                long value = nextValue();
                if (value < ID_BLOCK) {
                    next = value;
                    last = nextValue();
                } else {
                    next = value - ID_BLOCK + 1;
                    last = value;
                }
            }
            return next++;
        }
    }

    /** A new id source for one writer. */
    public Ids ids() {
        return new Ids();
    }

    private long nextValue() {
        Long value = jdbc.queryForObject(postgres ? "select nextval('sample_seq')" : "select next value for sample_seq", Long.class);
        return value == null ? 0 : value;
    }

    /**
     * In one transaction: locks run {@code runId}'s row; if the run is RUNNING and
     * {@code worker}'s, gives each row an id from {@code ids} (rising, in list order), inserts them
     * and stores {@code piece} (null: none). A row given an id in a transaction that failed takes a
     * new one at the next attempt.
     *
     * @return false when the run is gone, not RUNNING or another worker's (nothing written)
     * @throws org.springframework.dao.DataAccessException when the database fails (nothing written)
     */
    public boolean write(long runId, String worker, List<RunSample> rows, Ids ids, CsvPieceBuffer.Piece piece) {
        return Boolean.TRUE.equals(transactions.execute(tx -> {
            List<String[]> run = jdbc.query("select status, worker from run where id = ?" + (postgres ? " for no key update" : " for update"),
                    (rs, i) -> new String[] {rs.getString(1), rs.getString(2)}, runId);
            if (run.isEmpty() || !RunStatus.RUNNING.name().equals(run.get(0)[0]) || !worker.equals(run.get(0)[1])) {
                return false;
            }
            for (RunSample row : rows) {
                row.assignId(ids.next());
            }
            jdbc.batchUpdate(INSERT, new BatchPreparedStatementSetter() {
                @Override
                public void setValues(PreparedStatement ps, int i) throws SQLException {
                    bind(ps, rows.get(i));
                }

                @Override
                public int getBatchSize() {
                    return rows.size();
                }
            });
            if (piece != null) {
                pieces.store(runId, piece.seq(), piece.lastId(), piece.rows(), piece.text());
            }
            return true;
        }));
    }

    /** Stores one piece of samples.csv in a transaction of its own. */
    public void store(long runId, CsvPieceBuffer.Piece piece) {
        transactions.executeWithoutResult(tx -> pieces.store(runId, piece.seq(), piece.lastId(), piece.rows(), piece.text()));
    }

    private static void bind(PreparedStatement ps, RunSample row) throws SQLException {
        ps.setLong(1, row.getId());
        ps.setLong(2, row.getRunId());
        SampleCsv.bind(ps, 3, row);
    }
}
