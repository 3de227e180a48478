package dev.spacebench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Proof that a directory is an agent's bulk directory: at start the agent writes a fresh random
 * value into {@value #FILE_NAME} there and reports it in {@code Info.bulk_dir_id}. A host that is
 * told "this directory is the agent's bulk lane" reads the file and compares. A directory the
 * agent never wrote into cannot hold the value, so the host writes only where the agent could.
 */
public final class BulkDirId {

    public static final String FILE_NAME = ".spacebench-bulk-id";
    /** Far more than the 64 hex digits; a bigger file is not ours. */
    private static final int MAX_BYTES = 256;

    private BulkDirId() {}

    /**
     * Writes a new value into {@code bulkDir}, replacing the file atomically.
     *
     * @return the value, 64 hex digits
     * @throws IOException if the directory is not writable
     */
    static String write(Path bulkDir) throws IOException {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        String id = HexFormat.of().formatHex(random);
        Path temp = Files.createTempFile(bulkDir, FILE_NAME, ".tmp");
        try {
            Files.writeString(temp, id + "\n", StandardCharsets.US_ASCII);
            Files.move(temp, bulkDir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        return id;
    }

    /**
     * The value in {@code dir}'s file, read without following a link.
     *
     * @return empty when there is no such regular file, it is too big, or it cannot be read
     */
    public static Optional<String> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile() || attributes.size() > MAX_BYTES) {
                return Optional.empty();
            }
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII).strip());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
