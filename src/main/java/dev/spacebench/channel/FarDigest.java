package dev.spacebench.channel;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * The far side's size and SHA-256 of a file, for channels without an agent (SSH, container exec):
 * one exec of {@code sha256sum} and {@code stat} from the Space's own coreutils, inside the
 * caller's timed region as the agent's digest is.
 */
public final class FarDigest {

    private FarDigest() {}

    /** The argv that prints {@code SHA256  PATH} then the size in bytes of {@code path}, one per line. */
    public static List<String> argv(String path) {
        return List.of("sh", "-c", "sha256sum -- \"$1\" && stat -c %s -- \"$1\"", "sh", path);
    }

    /**
     * @param result what {@link #argv} returned
     * @param error how the channel reports a failed digest (its own exception type)
     * @return size and lower-case SHA-256 as the far side read them
     */
    public static FileRef parse(ExecResult result, String remotePath, Function<String, RuntimeException> error) {
        String out = new String(result.stdout(), StandardCharsets.UTF_8).strip();
        String[] lines = out.split("\n");
        if (result.exitCode() != 0 || result.timedOut() || lines.length != 2) {
            throw error.apply("the far side's sha256sum of " + remotePath + " failed (" + (result.timedOut() ? "timed out"
                    : "exit code " + result.exitCode()) + "): " + new String(result.stderr(), StandardCharsets.UTF_8).strip());
        }
        String sha = lines[0].split("\\s+", 2)[0];
        return new FileRef(Long.parseLong(lines[1].strip()), sha.toLowerCase());
    }

    /**
     * @return {@code got}, lower-cased
     * @throws TransferException naming {@code what} and both sizes and digests when {@code got} is not {@code expected}
     */
    public static FileRef verified(String what, FileRef expected, FileRef got) {
        if (got.size() != expected.size() || !got.sha256().equalsIgnoreCase(expected.sha256())) {
            throw new TransferException(what + ": expected " + expected.size() + " bytes with SHA-256 " + expected.sha256()
                    + ", got " + got.size() + " bytes with SHA-256 " + got.sha256());
        }
        return new FileRef(got.size(), got.sha256().toLowerCase());
    }

    /** {@code remotePath} inside {@code workDir}; refuses an absolute path or one with {@code ..}. */
    public static String inside(String workDir, String remotePath) {
        if (remotePath.startsWith("/") || List.of(remotePath.split("/")).contains("..")) {
            throw new IllegalArgumentException("remote path must be relative to the work directory, without '..': " + remotePath);
        }
        return workDir + "/" + remotePath;
    }
}
