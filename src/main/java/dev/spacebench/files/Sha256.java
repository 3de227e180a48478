package dev.spacebench.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 helpers for host and agent alike: streaming, 1 MiB at a time, never a whole file in memory. */
public final class Sha256 {
    // Heap buffers: a fresh direct buffer per call would hold 1 MiB of native memory until a GC
    // happens to free it; the JDK's per-thread temporary buffer for channel reads is reused instead.

    public static final int BUFFER_BYTES = 1 << 20;

    private Sha256() {}

    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Size in bytes and lower-case hex SHA-256 of a file. */
    public record Result(long size, String sha256) {}

    /** Reads {@code file} once and hashes it. */
    public static Result of(Path file) throws IOException {
        MessageDigest digest = newDigest();
        long size = 0;
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            while (in.read(buffer) != -1) {
                buffer.flip();
                size += buffer.remaining();
                digest.update(buffer);
                buffer.clear();
            }
        }
        return new Result(size, hex(digest));
    }

    /** Copies {@code from} to a new file {@code to}, hashing the bytes on the way: one read, one write. */
    public static Result copy(Path from, Path to) throws IOException {
        MessageDigest digest = newDigest();
        long size = 0;
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (in.read(buffer) != -1) {
                buffer.flip();
                size += buffer.remaining();
                digest.update(buffer.duplicate());
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                buffer.clear();
            }
        }
        return new Result(size, hex(digest));
    }
}
