package dev.spacebench.agent;

import dev.spacebench.agent.v1.ExportBulkRequest;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ImportBulkRequest;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * The bulk lane: files move through a directory that host and Space share instead of the gRPC
 * stream. Import renames the host's file into the work directory when both are on one file
 * system (else copies it), then verifies size and SHA-256; export copies a work file into the
 * bulk directory, hashing it on the way. Partial files never appear under their final names.
 */
final class BulkLane {

    private final Path bulkDir;
    private final WorkDir workDir;

    BulkLane(Path bulkDir, WorkDir workDir) throws IOException {
        this.bulkDir = bulkDir.toRealPath();
        this.workDir = workDir;
    }

    Path dir() {
        return bulkDir;
    }

    /**
     * @throws IllegalArgumentException for a bad bulk name or a negative size
     * @throws NoSuchFileException if the bulk file is not there
     * @throws DigestMismatchException if size or SHA-256 differ; no file is left behind
     */
    FileDigest importFile(ImportBulkRequest request) throws IOException {
        Path source = bulkFile(request.getBulkName());
        Path target = workDir.resolve(request.getPath());
        if (request.getSize() < 0) {
            throw new IllegalArgumentException("size must be >= 0, was " + request.getSize());
        }
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling("." + target.getFileName() + ".sb-" + UUID.randomUUID());
        Sha256.Result got;
        try {
            // Same file system: a rename moves no bytes, so the agent's read for hashing is the
            // only pass over the data. Across file systems (e.g. 9p in a VM) copy while hashing.
            Files.move(source, temp, StandardCopyOption.ATOMIC_MOVE);
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
        Path source = workDir.resolve(request.getPath());
        Path target = bulkFile(request.getBulkName());
        Path temp = bulkDir.resolve("." + target.getFileName() + ".sb-" + UUID.randomUUID());
        try {
            Sha256.Result got = Sha256.copy(source, temp);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return FileDigest.newBuilder().setPath(request.getBulkName()).setSize(got.size()).setSha256(got.sha256()).build();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    private Path bulkFile(String name) {
        if (name == null || name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("bulk_name must be a plain file name (no '/', not '.' or '..'), was '" + name + "'");
        }
        return bulkDir.resolve(name);
    }
}
