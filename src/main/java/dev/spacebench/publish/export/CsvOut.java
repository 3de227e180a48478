package dev.spacebench.publish.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A byte buffer in front of an output stream for CSV: ASCII and numbers go in without a String
 * or an encoder per value, which is most of what a million-row export costs otherwise.
 */
final class CsvOut {

    private final OutputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int used;

    CsvOut(OutputStream out) {
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
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                bytes(text.substring(i).getBytes(StandardCharsets.UTF_8));
                return;
            }
            put((byte) c);
        }
    }

    void number(long value) throws IOException {
        if (value < 0 || used + 20 > buffer.length) {
            ascii(Long.toString(value));
            return;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = used + digits - 1; i >= used; i--) {
            buffer[i] = (byte) ('0' + value % 10);
            value /= 10;
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

    void flush() throws IOException {
        out.write(buffer, 0, used);
        used = 0;
        out.flush();
    }

    private void bytes(byte[] bytes) throws IOException {
        for (byte b : bytes) {
            put(b);
        }
    }

    private void put(byte b) throws IOException {
        if (used == buffer.length) {
            out.write(buffer, 0, used);
            used = 0;
        }
        buffer[used++] = b;
    }
}
