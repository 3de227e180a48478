package dev.spacebench.space.vm;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The agent's class path gathered into one directory, so one 9p share carries it into a VM
 * (a share per jar would need more PCI slots than a machine has). Files are hard links where the
 * staging directory is on the same file system, copies otherwise; nothing is written to the
 * originals.
 */
final class VmClassPath {

    private VmClassPath() {}

    /**
     * @param entries class path entries (jars or directories), host paths
     * @param staging an empty directory to fill
     * @param guestRoot where the guest mounts {@code staging}
     * @return each entry's host path → its path in the guest, in class path order
     */
    static Map<Path, Path> stage(List<Path> entries, Path staging, Path guestRoot) throws IOException {
        Map<Path, Path> guestPaths = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Path entry = entries.get(i);
            // Numbered, as different entries may share a file name (two versions' classes/ dirs).
            String name = i + "-" + entry.getFileName();
            Path target = staging.resolve(name);
            if (Files.isDirectory(entry)) {
                try (Stream<Path> files = Files.walk(entry)) {
                    for (Path file : files.toList()) {
                        Path copy = target.resolve(entry.relativize(file).toString());
                        if (Files.isDirectory(file)) {
                            Files.createDirectories(copy);
                        } else {
                            linkOrCopy(file, copy);
                        }
                    }
                }
            } else if (Files.isRegularFile(entry)) {
                linkOrCopy(entry, target);
            } else {
                continue; // a missing entry is skipped by the JVM too
            }
            guestPaths.put(entry, guestRoot.resolve(name));
        }
        return guestPaths;
    }

    private static void linkOrCopy(Path file, Path copy) throws IOException {
        try {
            Files.createLink(copy, file);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(file, copy);
        }
    }
}
