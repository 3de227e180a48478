package dev.spacebench.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API token: the credential scripts and {@code bench} send as {@code Authorization: Bearer …},
 * and the one the dashboard's login form takes. It comes from the environment variable
 * {@value #VARIABLE} when that is set, else from {@code api-token} in the data directory, which the
 * first start creates readable by its owner only (0600).
 */
public final class ApiToken {

    /** The environment variable that sets the token instead of the file. */
    public static final String VARIABLE = "SPACEBENCH_API_TOKEN";
    /** The token file's name in the data directory. */
    public static final String FILE_NAME = "api-token";

    static final int MIN_LENGTH = 16;
    static final int MAX_LENGTH = 512;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Logger log = LoggerFactory.getLogger(ApiToken.class);

    private final byte[] token;
    private final String source;

    private ApiToken(String token, String source) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.source = source;
    }

    /**
     * The server's token: the variable's value when set, else the file's, created first if missing.
     *
     * @param fromVariable the value of {@value #VARIABLE}, or null when unset
     * @throws IllegalStateException when the variable or the file holds no usable token (the
     *     message says which and why), or the file cannot be created
     */
    static ApiToken load(String fromVariable, Path dataDirectory) {
        if (fromVariable != null && !fromVariable.isEmpty()) {
            String problem = problem(fromVariable);
            if (problem != null) {
                throw new IllegalStateException(VARIABLE + " " + problem);
            }
            return new ApiToken(fromVariable, "the environment variable " + VARIABLE);
        }
        Path file = dataDirectory.resolve(FILE_NAME).toAbsolutePath().normalize();
        return new ApiToken(readOrCreate(file), file.toString());
    }

    /**
     * The token a client on this host uses for a server on this data directory, without creating
     * anything: the variable when set, else the file when it is there and readable.
     */
    public static Optional<String> forClient(Path dataDirectory, Map<String, String> environment) {
        String fromVariable = environment.get(VARIABLE);
        if (fromVariable != null && !fromVariable.isEmpty()) {
            return Optional.of(fromVariable);
        }
        Path file = dataDirectory.resolve(FILE_NAME);
        try {
            return Files.isReadable(file) ? Optional.of(Files.readString(file).strip()).filter(t -> !t.isEmpty()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** True when {@code presented} is this token (compared in constant time). */
    public boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
    }

    /** Where the token came from, for the start message: the file's absolute path, or the variable. */
    public String source() {
        return source;
    }

    /** Whether it came from the file (else from the variable). */
    public boolean fromFile() {
        return !source.startsWith("the environment variable");
    }

    private static String readOrCreate(Path file) {
        try {
            Files.createDirectories(file.getParent());
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                String fresh = generate();
                Files.writeString(file, fresh + "\n");
                log.info("created the API token file {} (readable by its owner only)", file);
                return fresh;
            } catch (FileAlreadyExistsException exists) {
                return readExisting(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create or read the API token file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String readExisting(Path file) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(permissions)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
            log.warn("the API token file {} was {}: now readable by its owner only (rw-------)", file,
                    PosixFilePermissions.toString(permissions));
        }
        String existing = Files.readString(file).strip();
        String problem = problem(existing);
        if (problem != null) {
            throw new IllegalStateException("the API token file " + file + " " + problem + " (delete it and a new one is made at the next start)");
        }
        return existing;
    }

    private static String generate() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** Why a token cannot be used, or null when it can. Never echoes the token. */
    static String problem(String token) {
        if (token.length() < MIN_LENGTH || token.length() > MAX_LENGTH) {
            return "must hold " + MIN_LENGTH + " to " + MAX_LENGTH + " characters, has " + token.length();
        }
        if (!token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return "must be printable ASCII without spaces";
        }
        return null;
    }
}
