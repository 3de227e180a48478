package dev.spacebench.run.samples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * samples.csv's body stored in pieces as a run goes (table {@code sample_csv_piece}): a download
 * of a million-sample run copies about 160 stored pieces of 256 KiB instead of formatting a
 * million rows, which cost about 2 µs of CPU a row. Piece {@code seq} (1, 2, …) holds the run's
 * rows with ids after the previous piece's {@code last_id}, up to and including its own, in id
 * order, formatted by {@link SampleCsv}; the pieces are always a prefix of the run's rows. Each
 * body is the text deflated (RFC 1951, {@link Deflater#BEST_SPEED}, no header): plain, the pieces
 * took more room on H2 than the rows themselves (116 against 54 bytes a no-op sample).
 */
@Component
public class SampleCsvPieces {

    /** A piece is stored once its text reaches this many bytes (and at each metric's end). */
    static final int PIECE_BYTES = 256 * 1024;

    private final JdbcTemplate jdbc;

    SampleCsvPieces(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores one piece of text; in the caller's transaction if there is one. */
    public void store(long runId, int seq, long lastId, int rows, byte[] text) {
        jdbc.update("insert into sample_csv_piece (run_id, seq, last_id, row_count, body) values (?, ?, ?, ?, ?)",
                runId, seq, lastId, rows, deflate(text));
    }

    static byte[] deflate(byte[] text) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
        try {
            deflater.setInput(text);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(text.length / 4 + 64);
            byte[] buffer = new byte[1 << 16];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Where the run's stored pieces end, as {@link #copy} reads them (the prefix 1, 2, … of seq).
     *
     * @return {pieces in that prefix, the last sample id they cover}; {0, 0} when the run has none
     */
    public long[] end(long runId) {
        List<long[]> pieces = jdbc.query("select seq, last_id from sample_csv_piece where run_id = ? order by seq",
                (rs, i) -> new long[] {rs.getInt(1), rs.getLong(2)}, runId);
        long[] end = {0, 0};
        for (long[] piece : pieces) {
            if (piece[0] != end[0] + 1) {
                break;
            }
            end = piece;
        }
        return end;
    }

    /**
     * Copies the run's pieces to {@code out}, one piece in memory at a time.
     *
     * @return the last sample id the copied pieces cover; 0 when the run has none
     */
    long copy(long runId, CsvOut out) throws IOException {
        List<long[]> pieces = jdbc.query("select seq, last_id from sample_csv_piece where run_id = ? order by seq",
                (rs, i) -> new long[] {rs.getInt(1), rs.getLong(2)}, runId);
        long last = 0;
        byte[] buffer = new byte[1 << 16];
        for (int i = 0; i < pieces.size(); i++) {
            long[] piece = pieces.get(i);
            if (piece[0] != i + 1) {
                // Not a prefix (it cannot be, as pieces are written): the rows are the record.
                break;
            }
            byte[] body = jdbc.queryForObject("select body from sample_csv_piece where run_id = ? and seq = ?", byte[].class,
                    runId, (int) piece[0]);
            inflate(body, buffer, out);
            last = piece[1];
        }
        return last;
    }

    private static void inflate(byte[] body, byte[] buffer, CsvOut out) throws IOException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(body);
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IOException("a stored piece of samples.csv ends early");
                }
                out.raw(buffer, 0, n);
            }
        } catch (DataFormatException e) {
            throw new IOException("a stored piece of samples.csv is not deflate data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
