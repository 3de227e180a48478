package dev.spacebench.agent;

import dev.spacebench.agent.v1.ExportBulkRequest;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ImportBulkRequest;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.UUID;

/**
 * The bulk lane: files move through a directory that host and Space share instead of the gRPC
 * stream. Import renames the host's file into the work directory when both are on one file
 * system (else copies it), then verifies size and SHA-256; export copies a work file into the
 * bulk directory and answers its size (the host hashes what it finds there). Partial files never appear under their final names.
 *
 * <p>Import takes only regular files: a symlink (or a fifo, a device, a directory) placed in the
 * bulk directory is refused, so nothing there can make the agent move or read another file.
 */
final class BulkLane {

    private final Path bulkDir;
    private final WorkDir workDir;
    private final String id;

    /** Writes the directory's {@link BulkDirId}; without write access there, the id stays empty. */
    BulkLane(Path bulkDir, WorkDir workDir) throws IOException {
        this.bulkDir = bulkDir.toRealPath();
        this.workDir = workDir;
        String written;
        try {
            written = BulkDirId.write(this.bulkDir);
        } catch (IOException e) {
            System.Logger log = System.getLogger(BulkLane.class.getName());
            log.log(System.Logger.Level.WARNING, "cannot write " + BulkDirId.FILE_NAME + " into " + this.bulkDir + ": " + e
                    + "; hosts will not use this bulk lane");
            written = "";
        }
        this.id = written;
    }

    Path dir() {
        return bulkDir;
    }

    /** See {@link BulkDirId}; empty when it could not be written. */
    String id() {
        return id;
    }

    /**
     * @throws IllegalArgumentException for a bad bulk name, a negative size, or a bulk entry that is
     *     not a regular file (a symlink, a directory…)
     * @throws NoSuchFileException if the bulk file is not there
     * @throws DigestMismatchException if size or SHA-256 differ; no file is left behind
     */
    FileDigest importFile(ImportBulkRequest request) throws IOException {
        Path source = bulkFile(request.getBulkName());
        Path target = workDir.resolveFile(request.getPath());
        if (request.getSize() < 0) {
            throw new IllegalArgumentException("size must be >= 0, was " + request.getSize());
        }
        requireRegularFile(source, request.getBulkName());
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling("." + target.getFileName() + ".sb-" + UUID.randomUUID());
        Sha256.Result got;
        try {
            // Same file system: a rename moves no bytes, so the agent's read for hashing is the
            // only pass over the data. Across file systems (e.g. 9p in a VM) copy while hashing.
            Files.move(source, temp, StandardCopyOption.ATOMIC_MOVE);
            try {
                // Again after the move: the entry may have been swapped for a link since the check.
                requireRegularFile(temp, request.getBulkName());
            } catch (IllegalArgumentException e) {
                Files.deleteIfExists(temp);
                throw e;
            }
            got = Sha256.of(temp);
        } catch (AtomicMoveNotSupportedException e) {
            got = Sha256.copy(source, temp);
            Files.deleteIfExists(source);
        }
        try {
            DigestMismatchException.check(request.getPath(), request.getSize(), request.getSha256(), got);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return FileDigest.newBuilder().setPath(request.getPath()).setSize(got.size()).setSha256(got.sha256()).build();
    }

    /**
     * @throws NoSuchFileException if the work file is not there
     * @throws IllegalArgumentException for a bad bulk name
     */
    FileDigest exportFile(ExportBulkRequest request) throws IOException {
        Path source = workDir.resolveFile(request.getPath());
        Path target = bulkFile(request.getBulkName());
        Path temp = bulkDir.resolve("." + target.getFileName() + ".sb-" + UUID.randomUUID());
        try {
            // A copy in the kernel, not hashed here: the host hashes the bulk file itself before it
            // takes it, which checks end to end what the agent's digest would only repeat, and the
            // download then costs one copy and one hash, as cp + sha256 does (before: two hashes).
            Files.copy(source, temp);
            long size = Files.size(temp);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return FileDigest.newBuilder().setPath(request.getBulkName()).setSize(size).build();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    private static void requireRegularFile(Path entry, String name) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            String what = attributes.isSymbolicLink() ? "a symbolic link" : attributes.isDirectory() ? "a directory" : "not a regular file";
            throw new IllegalArgumentException("bulk entry " + ClientText.quote(name) + " is " + what
                    + "; the bulk lane imports regular files only");
        }
    }

    private Path bulkFile(String name) {
        if (name == null || name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")
                || name.indexOf('\0') >= 0 || name.getBytes(StandardCharsets.UTF_8).length > WorkDir.MAX_NAME_BYTES
                || name.startsWith(BulkDirId.FILE_NAME)) {
            throw new IllegalArgumentException("bulk_name must be a plain file name of at most " + WorkDir.MAX_NAME_BYTES
                    + " bytes (no '/', not '.' or '..', not " + BulkDirId.FILE_NAME + "), was " + ClientText.quote(name));
        }
        return bulkDir.resolve(name);
    }
}
