package dev.spacebench.database;

import java.sql.DatabaseMetaData;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** How much the database holds, for the runs list: runs, samples and, where the database says, bytes. */
@Component
public class DatabaseSize {

    private final JdbcTemplate jdbc;

    public DatabaseSize(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param bytes the space the database uses on disk: the whole database on PostgreSQL, the
     *     runs' tables on H2; null when the database cannot say
     */
    public record Size(long runs, long samples, Long bytes) {
    }

    public Size now() {
        long runs = count("select count(*) from run");
        long samples = count("select count(*) from sample");
        return new Size(runs, samples, bytes());
    }

    private long count(String sql) {
        Long n = jdbc.queryForObject(sql, Long.class);
        return n == null ? 0 : n;
    }

    private Long bytes() {
        try {
            String product = jdbc.execute((java.sql.Connection c) -> {
                DatabaseMetaData meta = c.getMetaData();
                return meta.getDatabaseProductName();
            });
            if ("PostgreSQL".equals(product)) {
                return jdbc.queryForObject("select pg_database_size(current_database())", Long.class);
            }
            if ("H2".equals(product)) {
                long total = 0;
                for (String table : List.of("RUN", "METRIC_RESULT", "SAMPLE", "BASELINE")) {
                    Long used = jdbc.queryForObject("select disk_space_used('" + table + "')", Long.class);
                    total += used == null ? 0 : used;
                }
                return total;
            }
        } catch (RuntimeException e) {
            // A database without the function, or without the rights to ask: the counts still say enough.
        }
        return null;
    }
}
