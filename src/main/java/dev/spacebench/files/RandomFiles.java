package dev.spacebench.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * Writes files of random bytes, so that no layer (file system, transport, storage) can compress
 * or deduplicate them. Each file gets its own seed from {@link SecureRandom}; the bytes come from
 * {@link SplittableRandom}, fast enough that generating a file costs far less than moving it.
 */
public final class RandomFiles {

    private static final SecureRandom SEEDS = new SecureRandom();

    private RandomFiles() {}

    /**
     * Creates {@code file} (which must not exist) with {@code size} random bytes, written 1 MiB at
     * a time, and hashes them on the way.
     *
     * @return size in bytes and SHA-256 of what was written
     */
    public static Sha256.Result write(Path file, long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, was " + size);
        }
        SplittableRandom random = new SplittableRandom(SEEDS.nextLong());
        MessageDigest digest = Sha256.newDigest();
        byte[] block = new byte[Sha256.BUFFER_BYTES];
        long left = size;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (left > 0) {
                int length = (int) Math.min(block.length, left);
                random.nextBytes(block);
                digest.update(block, 0, length);
                ByteBuffer buffer = ByteBuffer.wrap(block, 0, length);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                left -= length;
            }
        }
        return new Sha256.Result(size, Sha256.hex(digest));
    }
}
