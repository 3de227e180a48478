package dev.spacebench.space;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Kills a process and everything it started. */
final class ProcessTrees {

    private ProcessTrees() {}

    /**
     * SIGKILLs the descendants first (so none is re-parented and lost), then the process, and
     * waits up to 5 s for each to be gone.
     */
    static void kill(ProcessHandle process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        for (ProcessHandle handle : descendants) {
            await(handle);
        }
        await(process);
    }

    private static void await(ProcessHandle handle) {
        try {
            handle.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // still reported by the leftover checks, which look at what is really running
        }
    }
}
