package dev.spacebench.agent;

import java.io.IOException;
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
 */
public final class WorkDir {

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
        Path given;
        try {
            given = Path.of(relative);
        } catch (InvalidPathException e) {
            throw new PathOutsideWorkDirException("path '" + relative + "' is not valid: " + e.getReason());
        }
        if (given.isAbsolute() || relative.startsWith("/")) {
            throw new PathOutsideWorkDirException("path '" + relative + "' is absolute; give a path relative to the work directory");
        }
        for (Path part : given) {
            if (part.toString().equals("..")) {
                throw new PathOutsideWorkDirException("path '" + relative + "' has a '..' segment");
            }
        }
        Path target = root.resolve(given).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw new PathOutsideWorkDirException("path '" + relative + "' does not name a file inside the work directory");
        }
        checkExistingPartsStayInside(relative, target);
        return target;
    }

    private void checkExistingPartsStayInside(String relative, Path target) {
        // Walk up to the deepest part that exists; its real path must stay under the root.
        Path existing = target;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new PathOutsideWorkDirException("path '" + relative + "' does not resolve inside the work directory");
        }
        try {
            Path real = existing.toRealPath();
            if (!real.startsWith(root)) {
                throw new PathOutsideWorkDirException("path '" + relative + "' leads outside the work directory through a symlink");
            }
        } catch (IOException e) {
            // A dangling symlink: toRealPath fails. Refuse rather than follow it somewhere unknown.
            throw new PathOutsideWorkDirException("path '" + relative + "' cannot be resolved: " + e.getMessage());
        }
    }

    /** Thrown for a path that would leave the work directory; the agent maps it to INVALID_ARGUMENT. */
    public static final class PathOutsideWorkDirException extends RuntimeException {
        public PathOutsideWorkDirException(String message) {
            super(message);
        }
    }
}
