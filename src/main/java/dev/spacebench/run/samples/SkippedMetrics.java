package dev.spacebench.run.samples;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The metrics of a run that a channel could not do, with the channel's reason (table
 * {@code skipped_metric}, V14): written when the loops report them
 * ({@code measure.MeasureListener#skipped}), read by the page's Channels table.
 */
@Component
public class SkippedMetrics {

    /** The column's width; a longer reason is cut there with "...". */
    static final int MAX_REASON = 1000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    SkippedMetrics(JdbcTemplate jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** Stores {@code metric} of the run as skipped for {@code reason}, replacing what an earlier attempt stored. */
    public void record(long runId, String metric, String reason) {
        String text = reason == null || reason.isBlank() ? "the channel gave no reason" : reason;
        String cut = text.length() > MAX_REASON ? text.substring(0, MAX_REASON - 3) + "..." : text;
        transactions.executeWithoutResult(tx -> {
            jdbc.update("delete from skipped_metric where run_id = ? and metric = ?", runId, metric);
            jdbc.update("insert into skipped_metric (run_id, metric, reason) values (?, ?, ?)", runId, metric, cut);
        });
    }

    /** @return metric id → the channel's reason, by metric id; empty when nothing was skipped (or the run is older) */
    public Map<String, String> read(long runId) {
        Map<String, String> reasons = new LinkedHashMap<>();
        jdbc.query("select metric, reason from skipped_metric where run_id = ? order by metric",
                rs -> {
                    reasons.put(rs.getString(1), rs.getString(2));
                }, runId);
        return reasons;
    }
}
