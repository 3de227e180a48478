package dev.spacebench.space.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Kills a process and everything it started. */
public final class ProcessTrees {

    private static final long WAIT_NANOS = 5_000_000_000L;

    private ProcessTrees() {}

    /**
     * SIGKILLs the descendants and waits for them to be gone, then the process (with whatever it
     * started meanwhile), and waits again, up to 5 s each. Descendants first, while their parents
     * still live to reap them: a zombie whose parent died waits for the host's init, which on our
     * machines takes up to 2 s (bwrap's inner process when both bwraps were killed at once).
     */
    public static void kill(ProcessHandle process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        awaitGone(descendants);
        List<ProcessHandle> last = new ArrayList<>(process.descendants().toList());
        last.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        last.add(process);
        awaitGone(last);
    }

    /**
     * Polls, because {@code onExit()} of a process that is not our child polls too, starting at
     * 300 ms. A zombie counts as gone: it runs nothing and holds nothing but its pid.
     */
    private static void awaitGone(List<ProcessHandle> processes) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (processes.stream().anyMatch(ProcessTrees::running) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // still reported by the leftover checks, which look at what is really running
            }
        }
    }

    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // "pid (comm) S ...": the state follows the last ')', as comm may hold one
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
