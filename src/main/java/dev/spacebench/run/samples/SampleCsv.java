package dev.spacebench.run.samples;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * samples.csv's row format, in one place for both ways a row is written: by the worker as its
 * batches commit (stored pieces, {@link SampleCsvPieces}) and by the export from the rows not in a
 * piece yet ({@link SampleRows#writeCsv}). RFC 4180 quoting.
 *
 * <pre>metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index</pre>
 *
 * A null number or text is written as nothing; ok is {@code true}/{@code false}. Columns are only
 * ever appended.
 */
public final class SampleCsv {

    /** The header line, the one definition of the columns (the REST API's description of samples.csv reads it too). */
    public static final String HEADER = "metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index";
    /** The {@code sample} table's columns in {@link #HEADER}'s order. */
    static final String COLUMNS = HEADER.replace(",", ", ");
    /** How many of {@link #COLUMNS} there are. */
    static final int COLUMN_COUNT = HEADER.split(",").length;

    private SampleCsv() {}

    /** One row and its newline. */
    static void row(CsvOut out, String metric, int iteration, String phase, long ns, long bytes, boolean ok, String error,
                    Long agentNs, Integer level, Integer spaceIndex) throws IOException {
        out.utf8(metric);
        out.comma();
        out.number(iteration);
        out.comma();
        out.utf8(phase);
        out.comma();
        out.number(ns);
        out.comma();
        out.number(bytes);
        out.comma();
        out.ascii(ok ? "true" : "false");
        out.comma();
        out.quoted(error);
        out.comma();
        number(out, agentNs);
        out.comma();
        number(out, level == null ? null : level.longValue());
        out.comma();
        number(out, spaceIndex == null ? null : spaceIndex.longValue());
        out.newline();
    }

    public static void row(CsvOut out, RunSample s) throws IOException {
        row(out, s.getMetric(), s.getIteration(), s.getPhase(), s.getNs(), s.getBytes(), s.isOk(), s.getError(), s.getAgentNs(),
                s.getLevel(), s.getSpaceIndex());
    }

    /** A row read as {@code select COLUMNS …}. */
    public static void row(CsvOut out, ResultSet rs) throws SQLException, IOException {
        long agentNs = rs.getLong(8);
        Long agent = rs.wasNull() ? null : agentNs;
        int level = rs.getInt(9);
        Integer lv = rs.wasNull() ? null : level;
        int index = rs.getInt(10);
        Integer space = rs.wasNull() ? null : index;
        row(out, rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getBoolean(6), rs.getString(7),
                agent, lv, space);
    }

    private static void number(CsvOut out, Long value) throws IOException {
        if (value != null) {
            out.number(value);
        }
    }
}
