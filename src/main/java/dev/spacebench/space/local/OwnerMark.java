package dev.spacebench.space.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * A file in a Space's or a run's host directory naming the app process that made it (pid and
 * start time, so a reused pid is not taken for the owner). Several apps can share one Spaces root:
 * a directory is a leftover only when its owner process is gone.
 */
public final class OwnerMark {

    /** The mark's file name inside the directory. */
    public static final String FILE = "owner";

    private OwnerMark() {}

    /** Writes this process as the owner of {@code dir}. */
    public static void write(Path dir) throws IOException {
        ProcessHandle self = ProcessHandle.current();
        String text = "pid=" + self.pid() + "\nstarted=" + self.info().startInstant().map(Instant::toString).orElse("") + "\n";
        Files.writeString(dir.resolve(FILE), text, StandardCharsets.UTF_8);
    }

    /**
     * Whether the process that marked {@code dir} is gone.
     *
     * @return empty when the directory carries no readable mark (not ours to judge)
     */
    public static Optional<Boolean> ownerGone(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties mark = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            mark.load(in);
            long pid = Long.parseLong(mark.getProperty("pid", "").trim());
            String started = mark.getProperty("started", "").trim();
            Optional<ProcessHandle> owner = ProcessHandle.of(pid);
            if (owner.isEmpty() || !owner.get().isAlive()) {
                return Optional.of(true);
            }
            // Same pid, other start time: the pid was reused, the owner is gone.
            Optional<String> actual = owner.get().info().startInstant().map(Instant::toString);
            return Optional.of(!started.isEmpty() && actual.isPresent() && !actual.get().equals(started));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
