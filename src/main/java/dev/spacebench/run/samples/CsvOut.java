package dev.spacebench.run.samples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A byte buffer in front of an output stream for CSV: ASCII and numbers go in without a String
 * or an encoder per value, which is most of what a million-row export costs otherwise.
 */
public final class CsvOut {

    /** 10^0 … 10^18: a long has at most 19 digits. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final OutputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int used;

    public CsvOut(OutputStream out) {
        this.out = out;
    }

    void comma() throws IOException {
        put((byte) ',');
    }

    void newline() throws IOException {
        put((byte) '\n');
    }

    void ascii(String text) throws IOException {
        utf8(text);
    }

    /** Any text, as UTF-8. */
    void utf8(String text) throws IOException {
        int length = text.length();
        if (used + length > buffer.length) {
            drain();
        }
        int i = 0;
        if (length <= buffer.length) {
            // The common case, ASCII that fits: straight into the buffer, no bounds check per byte.
            while (i < length) {
                char c = text.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                buffer[used + i++] = (byte) c;
            }
            used += i;
            if (i == length) {
                return;
            }
        }
        bytes(text.substring(i).getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link Long#toString(long)} writes it. */
    void number(long value) throws IOException {
        if (value < 0) {
            ascii(Long.toString(value));
            return;
        }
        if (used + 20 > buffer.length) {
            drain();
        }
        int digits = 1;
        while (digits < POWERS_OF_TEN.length && value >= POWERS_OF_TEN[digits]) {
            digits++;
        }
        // Most values (ns of a round trip, iterations, bytes) fit an int, whose division by ten is
        // a multiply; a long division per digit was most of a million-row export's own time.
        if (value <= Integer.MAX_VALUE) {
            int rest = (int) value;
            for (int i = used + digits - 1; i >= used; i--) {
                int tenth = rest / 10;
                buffer[i] = (byte) ('0' + rest - tenth * 10);
                rest = tenth;
            }
        } else {
            long rest = value;
            for (int i = used + digits - 1; i >= used; i--) {
                long tenth = rest / 10;
                buffer[i] = (byte) ('0' + rest - tenth * 10);
                rest = tenth;
            }
        }
        used += digits;
    }

    /** RFC 4180: in double quotes, a quote doubled; nothing for null or empty. */
    void quoted(String text) throws IOException {
        if (text == null || text.isEmpty()) {
            return;
        }
        put((byte) '"');
        utf8(text.replace("\"", "\"\""));
        put((byte) '"');
    }

    /** Bytes already formatted (a stored piece of CSV), copied as they are. */
    void raw(byte[] bytes, int offset, int length) throws IOException {
        if (length > buffer.length - used) {
            drain();
            out.write(bytes, offset, length);
            return;
        }
        System.arraycopy(bytes, offset, buffer, used, length);
        used += length;
    }

    /** Writes what is buffered and flushes the stream. */
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    private void bytes(byte[] bytes) throws IOException {
        for (byte b : bytes) {
            put(b);
        }
    }

    private void put(byte b) throws IOException {
        if (used == buffer.length) {
            drain();
        }
        buffer[used++] = b;
    }

    private void drain() throws IOException {
        out.write(buffer, 0, used);
        used = 0;
    }
}
