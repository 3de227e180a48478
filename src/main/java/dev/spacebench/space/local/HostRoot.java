package dev.spacebench.space.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The file system a Space that borrows the host's OS sees: the host's /usr read-only, the merged-/usr
 * symlinks Debian has at the top, and read-only binds of the few host paths the agent needs
 * besides (its JVM, its class path, its token), each at the same path as on the host.
 */
public final class HostRoot {

    /** Top-level symlinks into /usr, as on a merged-/usr system. */
    public static final Map<String, String> USR_LINKS = Map.of("bin", "usr/bin", "lib", "usr/lib", "lib64", "usr/lib64", "sbin", "usr/sbin");

    private HostRoot() {}

    /**
     * The paths to bind read-only besides /usr: existing ones outside /usr, without those below
     * another one kept, sorted (so parents are bound before children).
     */
    public static List<Path> binds(List<Path> paths) {
        List<Path> kept = new ArrayList<>();
        for (Path path : paths.stream().map(p -> p.toAbsolutePath().normalize()).sorted().distinct().toList()) {
            if (path.startsWith("/usr") || !Files.exists(path) || kept.stream().anyMatch(path::startsWith)) {
                continue;
            }
            kept.add(path);
        }
        return kept;
    }

    /** Makes {@code dir} a root directory holding only the /usr symlinks and empty mount points. */
    public static Path skeleton(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, String> link : USR_LINKS.entrySet()) {
            Files.createSymbolicLink(dir.resolve(link.getKey()), Path.of(link.getValue()));
        }
        for (String mountPoint : List.of("usr", "etc", "tmp", "proc", "dev", "sys", "run")) {
            Files.createDirectory(dir.resolve(mountPoint));
        }
        return dir;
    }
}
