package dev.spacebench.space.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A Space's token and the file the agent reads it from.
 *
 * @param token 64 hex characters (256 random bits)
 * @param path the host file holding it, readable by its owner only
 */
public record TokenFile(String token, Path path) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Makes a new token and writes it to {@code dir/token} (mode 0600). */
    public static TokenFile create(Path dir) throws IOException {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        Path file = dir.resolve("token");
        // Create it owner-only from the start, so no other user can read it in between.
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, token);
        return new TokenFile(token, file);
    }
}
