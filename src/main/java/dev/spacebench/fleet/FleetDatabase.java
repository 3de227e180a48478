package dev.spacebench.fleet;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The shared database as the fleet sees it: which engine it is (PostgreSQL claims with SKIP LOCKED,
 * H2 with a conditional update) and its clock, which every worker's leases are measured by so that
 * the hosts' clocks need not agree.
 */
@Component
public class FleetDatabase {

    private final JdbcTemplate jdbc;
    private final boolean postgres;
    private final boolean shared;

    public FleetDatabase(JdbcTemplate jdbc, DataSource dataSource) throws SQLException {
        this.jdbc = jdbc;
        try (Connection c = dataSource.getConnection()) {
            this.postgres = c.getMetaData().getDatabaseProductName().equals("PostgreSQL");
            String url = String.valueOf(c.getMetaData().getURL()).toUpperCase(java.util.Locale.ROOT);
            this.shared = postgres || url.contains("AUTO_SERVER=TRUE") || url.startsWith("JDBC:H2:TCP:");
        }
    }

    public boolean postgres() {
        return postgres;
    }

    /**
     * True when other processes may use this database at the same time: PostgreSQL, or H2 served
     * to several (AUTO_SERVER, a TCP server). An H2 file opened without them is this process's alone.
     */
    public boolean shared() {
        return shared;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** The database's current time. */
    public Instant now() {
        return jdbc.queryForObject("SELECT CURRENT_TIMESTAMP", OffsetDateTime.class).toInstant();
    }

    /** An instant as the JDBC drivers of both engines store it in a TIMESTAMP WITH TIME ZONE column. */
    static OffsetDateTime utc(Instant at) {
        return at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    }
}
