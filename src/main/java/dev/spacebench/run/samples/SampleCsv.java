package dev.spacebench.run.samples;

import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.metric.Via;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * samples.csv's columns and row format, in one place for every way a row is written: by the
 * worker as its batches commit (stored pieces, {@link SampleCsvPieces}), by the export from the
 * rows not in a piece yet ({@link SampleRows#writeCsv}), by the recovery of an interrupted run
 * ({@code run.InterruptedRunFigures}), and into the {@code sample} table ({@link SampleBatches}).
 * RFC 4180 quoting.
 *
 * <pre>metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry</pre>
 *
 * A null number or text is written as nothing; ok is {@code true}/{@code false}. Columns are only
 * ever appended: a new one is a new {@link Column} (its CSV text, its table binding and how a
 * stored row is copied) and the same name appended to {@link #STORED} and {@link #HEADER}. One,
 * {@code channel} (after {@code space_index}), is no stored column: it is read from the metric's id
 * ({@link Via#channelOf}), {@code agent} for the agent's exec and file metrics, the channel's id for
 * {@code via.<channel>.…}, nothing for the Space's lifecycle, the floor and the sweep.
 */
public final class SampleCsv {

    /**
     * The header line: {@link Column}'s names in order (checked when the class loads). A literal, so
     * that the REST API's description of samples.csv, an annotation, can read it.
     */
    public static final String HEADER = "metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry";
    /** The stored columns' names, {@link Column}'s, in order: {@link #HEADER} less the channel. */
    static final String STORED = "metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,block,seq,entry";
    /**
     * The stored column after which the header has the channel: the last column before the channel
     * came (issue 27), so that columns appended since (block, seq) follow it and no column moves.
     */
    private static final Column CHANNEL_AFTER = Column.SPACE_INDEX;

    /**
     * One column of samples.csv, which is also the {@code sample} table's column of the same name.
     * Each says how it writes a stored sample as CSV text, binds it into the table's insert, and
     * copies it from a row read as {@code select COLUMNS …}.
     */
    public enum Column {
        METRIC("metric") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.utf8(s.getMetric());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setString(at, s.getMetric());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.utf8(rs.getString(position()));
            }
        },
        ITERATION("iteration") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.number(s.getIteration());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setInt(at, s.getIteration());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.number(rs.getInt(position()));
            }
        },
        PHASE("phase") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.utf8(s.getPhase());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setString(at, s.getPhase());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.utf8(rs.getString(position()));
            }
        },
        NS("ns") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.number(s.getNs());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setLong(at, s.getNs());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.number(rs.getLong(position()));
            }
        },
        BYTES("bytes") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.number(s.getBytes());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setLong(at, s.getBytes());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.number(rs.getLong(position()));
            }
        },
        OK("ok") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.ascii(s.isOk() ? "true" : "false");
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                ps.setBoolean(at, s.isOk());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.ascii(rs.getBoolean(position()) ? "true" : "false");
            }
        },
        ERROR("error") {
            void csv(CsvOut out, RunSample s) throws IOException {
                out.quoted(s.getError());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                if (s.getError() == null) {
                    ps.setNull(at, Types.VARCHAR);
                } else {
                    ps.setString(at, s.getError());
                }
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                out.quoted(rs.getString(position()));
            }
        },
        AGENT_NS("agent_ns") {
            void csv(CsvOut out, RunSample s) throws IOException {
                number(out, s.getAgentNs());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                bindLong(ps, at, s.getAgentNs());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                number(out, longOrNull(rs, position()));
            }
        },
        LEVEL("level") {
            void csv(CsvOut out, RunSample s) throws IOException {
                number(out, s.getLevel());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                bindInt(ps, at, s.getLevel());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                number(out, intOrNull(rs, position()));
            }
        },
        SPACE_INDEX("space_index") {
            void csv(CsvOut out, RunSample s) throws IOException {
                number(out, s.getSpaceIndex());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                bindInt(ps, at, s.getSpaceIndex());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                number(out, intOrNull(rs, position()));
            }
        },
        /** An interleaved run's block of the series, 1..blocks (measure.Sample#block); empty otherwise. */
        BLOCK("block") {
            void csv(CsvOut out, RunSample s) throws IOException {
                number(out, s.getBlock());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                bindInt(ps, at, s.getBlock());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                number(out, intOrNull(rs, position()));
            }
        },
        /** The sample's place in an interleaved run's blocks, 1, 2, … across every series (measure.Sample#seq); empty otherwise. */
        SEQ("seq") {
            void csv(CsvOut out, RunSample s) throws IOException {
                number(out, s.getSeq());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                bindLong(ps, at, s.getSeq());
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                number(out, longOrNull(rs, position()));
            }
        },
        /**
         * A comparison run's entry the sample belongs to, by its label (issue 29; labels are
         * {@code [A-Za-z0-9._-]}, no quoting needed); empty outside a comparison and for the floor.
         */
        ENTRY("entry") {
            void csv(CsvOut out, RunSample s) throws IOException {
                label(out, s.getEntry());
            }

            void bind(PreparedStatement ps, int at, RunSample s) throws SQLException {
                if (s.getEntry() == null) {
                    ps.setNull(at, Types.VARCHAR);
                } else {
                    ps.setString(at, s.getEntry());
                }
            }

            void copy(ResultSet rs, CsvOut out) throws SQLException, IOException {
                label(out, rs.getString(position()));
            }
        };

        private final String columnName;

        Column(String columnName) {
            this.columnName = columnName;
        }

        /** Its name in samples.csv's header and in the {@code sample} table, e.g. {@code agent_ns}. */
        public String columnName() {
            return columnName;
        }

        /** Its 1-based place in a row read as {@code select COLUMNS …}. */
        int position() {
            return ordinal() + 1;
        }

        abstract void csv(CsvOut out, RunSample s) throws IOException;

        abstract void bind(PreparedStatement ps, int at, RunSample s) throws SQLException;

        abstract void copy(ResultSet rs, CsvOut out) throws SQLException, IOException;
    }

    private static final Column[] ALL = Column.values();
    /** The {@code sample} table's columns in {@link #HEADER}'s order. */
    static final String COLUMNS = Arrays.stream(ALL).map(Column::columnName).collect(Collectors.joining(", "));
    /** How many of {@link #COLUMNS} there are. */
    public static final int COLUMN_COUNT = ALL.length;

    static {
        String names = Arrays.stream(ALL).map(Column::columnName).collect(Collectors.joining(","));
        String header = Arrays.stream(ALL)
                .map(c -> c == CHANNEL_AFTER ? c.columnName() + ",channel" : c.columnName())
                .collect(Collectors.joining(","));
        if (!names.equals(STORED) || !HEADER.equals(header)) {
            throw new IllegalStateException("SampleCsv.STORED is " + STORED + " and HEADER " + HEADER
                    + " but its columns are " + names + " (header " + header + ")");
        }
    }

    private SampleCsv() {}

    /** One stored sample's row and its newline. */
    public static void row(CsvOut out, RunSample s) throws IOException {
        for (int i = 0; i < ALL.length; i++) {
            if (i > 0) {
                out.comma();
            }
            ALL[i].csv(out, s);
            if (ALL[i] == CHANNEL_AFTER) {
                channel(out, s.getMetric());
            }
        }
        out.newline();
    }

    /** A row read as {@code select COLUMNS …}, and its newline. */
    public static void row(CsvOut out, ResultSet rs) throws SQLException, IOException {
        row(out, rs, null);
    }

    /**
     * As {@link #row(CsvOut, ResultSet)}, the error text through {@code errors} (a published
     * site's redaction; null: as stored). A null error stays empty.
     */
    static void row(CsvOut out, ResultSet rs, UnaryOperator<String> errors) throws SQLException, IOException {
        for (int i = 0; i < ALL.length; i++) {
            if (i > 0) {
                out.comma();
            }
            if (errors != null && ALL[i] == Column.ERROR) {
                String error = rs.getString(Column.ERROR.position());
                out.quoted(error == null ? null : errors.apply(error));
            } else {
                ALL[i].copy(rs, out);
            }
            if (ALL[i] == CHANNEL_AFTER) {
                channel(out, rs.getString(Column.METRIC.position()));
            }
        }
        out.newline();
    }

    /** Binds a stored sample's columns into an insert, in {@link #COLUMNS}' order from parameter {@code first}. */
    static void bind(PreparedStatement ps, int first, RunSample s) throws SQLException {
        for (int i = 0; i < ALL.length; i++) {
            ALL[i].bind(ps, first + i, s);
        }
    }

    /** The sample a row read as {@code select COLUMNS …} holds. */
    public static Sample sample(ResultSet rs) throws SQLException {
        Phase phase = Phase.WARMUP.wireName().equals(rs.getString(Column.PHASE.position())) ? Phase.WARMUP : Phase.MEASURED;
        return new Sample(rs.getString(Column.METRIC.position()), rs.getInt(Column.ITERATION.position()), phase,
                rs.getLong(Column.NS.position()), rs.getLong(Column.BYTES.position()), rs.getBoolean(Column.OK.position()),
                rs.getString(Column.ERROR.position()), longOrNull(rs, Column.AGENT_NS.position()),
                intOrNull(rs, Column.LEVEL.position()), intOrNull(rs, Column.SPACE_INDEX.position()),
                intOrNull(rs, Column.BLOCK.position()), longOrNull(rs, Column.SEQ.position()));
    }

    /** The channel column, after a comma: from the metric's id. */
    private static void channel(CsvOut out, String metric) throws IOException {
        out.comma();
        Optional<String> channel = Via.channelOf(metric);
        if (channel.isPresent()) {
            out.ascii(channel.get());
        }
    }

    private static Long longOrNull(ResultSet rs, int at) throws SQLException {
        long value = rs.getLong(at);
        return rs.wasNull() ? null : value;
    }

    private static Integer intOrNull(ResultSet rs, int at) throws SQLException {
        int value = rs.getInt(at);
        return rs.wasNull() ? null : value;
    }

    private static void bindLong(PreparedStatement ps, int at, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(at, Types.BIGINT);
        } else {
            ps.setLong(at, value);
        }
    }

    private static void bindInt(PreparedStatement ps, int at, Integer value) throws SQLException {
        if (value == null) {
            ps.setNull(at, Types.INTEGER);
        } else {
            ps.setInt(at, value);
        }
    }

    private static void label(CsvOut out, String label) throws IOException {
        if (label != null) {
            out.ascii(label);
        }
    }

    private static void number(CsvOut out, Number value) throws IOException {
        if (value != null) {
            out.number(value.longValue());
        }
    }
}
