package dev.spacebench.run.samples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * samples.csv's text of rows not yet in a stored piece, cut where {@link SampleCsvPieces} cuts it
 * (a piece is sealed once it holds {@link SampleCsvPieces#PIECE_BYTES} or more). The worker's
 * recorder and the recovery of an interrupted run both fill one, so both cut samples.csv the same.
 *
 * <p>{@link #next()} only looks; {@link #stored()} moves on, so a caller whose store failed keeps the
 * text for the next attempt.
 */
public final class CsvPieceBuffer {

    /** A piece as {@link SampleCsvPieces#store} takes it: its number (1-based), last row id, row count, UTF-8 text. */
    public record Piece(int seq, long lastId, int rows, byte[] text) {
    }

    /** Writes one row's CSV text. */
    @FunctionalInterface
    public interface RowWriter<E extends Exception> {
        void write(CsvOut out) throws IOException, E;
    }

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(SampleCsvPieces.PIECE_BYTES + (1 << 16));
    private final CsvOut out = new CsvOut(bytes);
    private int piecesStored;
    private int rows;
    private long lastId;

    /** @param piecesStored pieces of this run already stored; the next one is numbered after them */
    public CsvPieceBuffer(int piecesStored) {
        this.piecesStored = piecesStored;
    }

    /** Appends row {@code id} (ids rise) as {@code writer} writes it. */
    public <E extends Exception> void add(long id, RowWriter<E> writer) throws E {
        try {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        rows++;
        lastId = id;
    }

    /** Whether the text held has reached a piece's size. */
    public boolean full() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.size() >= SampleCsvPieces.PIECE_BYTES;
    }

    /** The text held as the next piece to store, or null when no row is held. */
    public Piece next() {
        if (rows == 0) {
            return null;
        }
        full(); // flushes
        return new Piece(piecesStored + 1, lastId, rows, bytes.toByteArray());
    }

    /** The piece {@link #next()} gave is stored: start the next one. */
    public void stored() {
        piecesStored++;
        bytes.reset();
        rows = 0;
    }
}
