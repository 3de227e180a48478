package dev.spacebench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Confines client-supplied paths to one directory.
 *
 * <p>A path is accepted only when it is relative, non-empty, has no {@code ..} segment, and every
 * part of it that already exists resolves (following symlinks) to a place inside the root. The
 * check on existing parts is what stops a symlink planted in the work directory from leading out.
 * Lengths are Linux's: {@value #MAX_PATH_BYTES} bytes per path, {@value #MAX_NAME_BYTES} per name,
 * in UTF-8. Messages quote at most {@value ClientText#MAX_CHARS} characters of the path.
 */
public final class WorkDir {

    /** PATH_MAX on Linux, with its terminating NUL. */
    public static final int MAX_PATH_BYTES = 4095;
    /** NAME_MAX on Linux. */
    public static final int MAX_NAME_BYTES = 255;

    private final Path root;

    /**
     * @param root an existing directory; it is resolved to its real path once, here
     * @throws IOException if the directory does not exist or cannot be resolved
     */
    public WorkDir(Path root) throws IOException {
        this.root = root.toRealPath();
    }

    public Path root() {
        return root;
    }

    /**
     * Resolves a client path inside the root.
     *
     * @param relative a relative path such as {@code "in/file.bin"}
     * @return the absolute path inside the root (the file itself may not exist yet)
     * @throws PathOutsideWorkDirException if the path is empty, absolute, has a {@code ..}
     *     segment, or an existing part of it resolves outside the root
     */
    public Path resolve(String relative) {
        if (relative == null || relative.isBlank()) {
            throw new PathOutsideWorkDirException("path is empty");
        }
        String quoted = ClientText.quote(relative);
        int bytes = relative.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PATH_BYTES) {
            throw new PathOutsideWorkDirException("path " + quoted + " is " + bytes + " bytes long; at most " + MAX_PATH_BYTES
                    + " bytes are allowed");
        }
        Path given;
        try {
            given = Path.of(relative);
        } catch (InvalidPathException e) {
            throw new PathOutsideWorkDirException("path " + quoted + " is not valid: " + e.getReason());
        }
        if (given.isAbsolute() || relative.startsWith("/")) {
            throw new PathOutsideWorkDirException("path " + quoted + " is absolute; give a path relative to the work directory");
        }
        for (Path part : given) {
            if (part.toString().equals("..")) {
                throw new PathOutsideWorkDirException("path " + quoted + " has a '..' segment");
            }
            int nameBytes = part.toString().getBytes(StandardCharsets.UTF_8).length;
            if (nameBytes > MAX_NAME_BYTES) {
                throw new PathOutsideWorkDirException("path " + quoted + " has a name of " + nameBytes + " bytes; at most "
                        + MAX_NAME_BYTES + " bytes per name are allowed");
            }
        }
        Path target = root.resolve(given).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw new PathOutsideWorkDirException("path " + quoted + " does not name a file inside the work directory");
        }
        checkExistingPartsStayInside(quoted, target);
        return target;
    }

    /**
     * As {@link #resolve}, for a path that must name a file: one that exists must not be a
     * directory (or anything else that is not a regular file).
     *
     * @throws PathOutsideWorkDirException as {@link #resolve}, or naming what the path is instead
     */
    public Path resolveFile(String relative) {
        Path target = resolve(relative);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(target)) {
            throw new PathOutsideWorkDirException("path " + ClientText.quote(relative) + " names "
                    + (Files.isDirectory(target) ? "a directory" : "something that is not a regular file") + "; give a file");
        }
        return target;
    }

    /** As {@link #resolve}, for a working directory: one that exists must be a directory. */
    public Path resolveDirectory(String relative) {
        Path target = resolve(relative);
        if (Files.exists(target) && !Files.isDirectory(target)) {
            throw new PathOutsideWorkDirException("cwd " + ClientText.quote(relative) + " is not a directory");
        }
        return target;
    }

    private void checkExistingPartsStayInside(String quoted, Path target) {
        // Walk up to the deepest part that exists; its real path must stay under the root.
        Path existing = target;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new PathOutsideWorkDirException("path " + quoted + " does not resolve inside the work directory");
        }
        try {
            Path real = existing.toRealPath();
            if (!real.startsWith(root)) {
                throw new PathOutsideWorkDirException("path " + quoted + " leads outside the work directory through a symlink");
            }
        } catch (IOException e) {
            // A dangling symlink: toRealPath fails. Refuse rather than follow it somewhere unknown.
            throw new PathOutsideWorkDirException("path " + quoted + " cannot be resolved (a dangling symlink or no access)");
        }
    }

    /** Thrown for a path that would leave the work directory; the agent maps it to INVALID_ARGUMENT. */
    public static final class PathOutsideWorkDirException extends RuntimeException {
        public PathOutsideWorkDirException(String message) {
            super(message);
        }
    }
}
