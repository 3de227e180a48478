package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * What a Space may leave behind, looked for where it really is: processes in /proc, files on
 * disk. Take a {@link #snapshot} while the Space is live, {@link #assertNoneLeft} after delete.
 */
public record Leftovers(List<Long> pids, Path directory, String marker) {

    /**
     * @param pid the process the provider started (from the Space's facts)
     * @param directory the Space's host directory (socket, work, bulk, token…)
     * @param marker text any process of this Space has in its command line (e.g. the Space's id)
     * @param others more processes of the Space that are not descendants of {@code pid} (e.g. a
     *     container's, which are the engine's children); their descendants too
     */
    public static Leftovers snapshot(long pid, Path directory, String marker, long... others) {
        List<Long> pids = new ArrayList<>();
        for (long root : LongStream.concat(LongStream.of(pid), LongStream.of(others)).toArray()) {
            pids.add(root);
            ProcessHandle.of(root).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
        }
        return new Leftovers(pids, directory, marker);
    }

    /** The pid of the first process in the snapshot whose command is {@code java}, for killing the agent. */
    public long javaPid() {
        return pids.stream().filter(pid -> ProcessHandle.of(pid).flatMap(p -> p.info().command())
                .map(c -> c.endsWith("/java")).orElse(false)).findFirst().orElseThrow();
    }

    /** Fails naming what is left: a process of the snapshot, a process mentioning the marker, the directory. */
    public void assertNoneLeft() throws IOException {
        // A killed process stays in /proc until its parent reaps it; give that a moment.
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < deadline && (!alive().isEmpty() || !processesMentioning(marker).isEmpty())) {
            sleep(20);
        }
        assertThat(alive()).as("processes of the Space still in /proc").isEmpty();
        assertThat(processesMentioning(marker)).as("processes whose command line mentions %s", marker).isEmpty();
        assertThat(directory).as("the Space's directory").doesNotExist();
    }

    private List<Long> alive() {
        return pids.stream().filter(pid -> Files.exists(Path.of("/proc", Long.toString(pid)))).toList();
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every live process whose command line contains {@code text}, as "pid: cmdline". */
    public static List<String> processesMentioning(String text) throws IOException {
        List<String> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                if (Long.parseLong(proc.getFileName().toString()) == self) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (cmdline.contains(text)) {
                        found.add(proc.getFileName() + ": " + cmdline);
                    }
                } catch (IOException ignored) {
                    // exited while we looked
                }
            }
        }
        return found;
    }
}
