package dev.spacebench.space.local;

import dev.spacebench.space.FileTrees;
import dev.spacebench.space.SpacesSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * At start, removes what an app that died without stopping (kill -9, a crash, power loss) left
 * under the Spaces root: its Spaces' directories and processes, its containers, and its runs'
 * staging directories. Only directories whose {@link OwnerMark} names a process that is gone are
 * touched, so a second app on the same root keeps its live Spaces; a directory without a mark
 * is left alone.
 */
@Component
public class LeftoverSpaces {

    private static final Logger log = LoggerFactory.getLogger(LeftoverSpaces.class);

    private final Path root;
    private final List<LocalSpaceProvider> providers;

    public LeftoverSpaces(SpacesSettings spaces, List<LocalSpaceProvider> providers) {
        this.root = spaces.root();
        this.providers = providers;
    }

    /** Runs once the app is up; the directories it removes belong to no live process. */
    @EventListener(ApplicationReadyEvent.class)
    public void removeAtStart() {
        Removed removed = remove();
        if (!removed.dirs().isEmpty() || removed.processes() > 0) {
            log.warn("removed {} directories left under {} by an app that did not stop, and killed {} processes of theirs: {}",
                    removed.dirs().size(), root, removed.processes(), removed.dirs().stream().map(p -> p.getFileName().toString()).toList());
        }
    }

    /**
     * What one pass removed.
     *
     * @param dirs the directories removed
     * @param processes how many processes of theirs were killed (found by the kind's mark or by naming the directory)
     */
    public record Removed(List<Path> dirs, int processes) {
    }

    /**
     * Removes every directory under the root whose owner process is gone, with its processes and
     * what its kind keeps outside it ({@link LocalSpaceProvider#removeLeftover}: for a process
     * Space, every process carrying its environment mark, as its delete finds them).
     *
     * @return the directories removed and how many processes were killed
     */
    public Removed remove() {
        if (!Files.isDirectory(root)) {
            return new Removed(List.of(), 0);
        }
        List<Path> orphans;
        try (Stream<Path> dirs = Files.list(root)) {
            orphans = dirs.filter(Files::isDirectory).filter(d -> OwnerMark.ownerGone(d).orElse(false)).toList();
        } catch (IOException e) {
            log.warn("could not list {} for leftovers: {}", root, e.toString());
            return new Removed(List.of(), 0);
        }
        List<Path> removed = new ArrayList<>();
        int killed = 0;
        for (Path dir : orphans) {
            String name = dir.getFileName().toString();
            // The kind's own leftovers first (a container is the engine's, not ours), as delete does.
            killed += providers.stream().filter(p -> name.startsWith(p.kind() + "-")).mapToInt(p -> p.removeLeftover(name)).sum();
            killed += killProcessesUsing(dir);
            FileTrees.deleteQuietly(dir);
            if (!Files.exists(dir)) {
                removed.add(dir);
            }
        }
        return new Removed(removed, killed);
    }

    /**
     * The whole command line from /proc, arguments separated by spaces; empty when unreadable.
     * ({@code ProcessHandle.Info} cuts long ones short, and an agent's class path is long.)
     */
    public static String commandLine(ProcessHandle process) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Every process whose command line names the directory (an agent's work dir, bwrap's binds, QEMU's 9p share). */
    private static int killProcessesUsing(Path dir) {
        String path = dir.toAbsolutePath() + "/";
        List<ProcessHandle> using = ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> commandLine(p).contains(path))
                .toList();
        for (ProcessHandle process : using) {
            log.info("killing process {} of a leftover Space: {}", process.pid(), process.info().command().orElse("?"));
            ProcessTrees.kill(process);
        }
        return using.size();
    }
}
