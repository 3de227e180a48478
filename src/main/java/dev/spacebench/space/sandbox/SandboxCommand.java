package dev.spacebench.space.sandbox;

import dev.spacebench.space.local.HostRoot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bubblewrap command line for a sandbox Space: new user, pid, mount, net, uts, ipc and
 * cgroup namespaces; the host's /usr read-only with the usual merged-/usr symlinks; fresh /proc,
 * /dev and /tmp; the agent's JVM and class path read-only; one host directory shared read-write.
 * Every host path appears inside at the same path, so the agent's paths and the host's agree.
 *
 * @param bwrap the bwrap binary
 * @param hostname the Space's host name (its uts namespace)
 * @param shared the host directory shared read-write: the agent's socket, work and bulk dirs
 * @param workDir where the agent starts, below {@code shared}
 * @param readOnly host paths the agent needs read-only (JVM home, class path, token file…);
 *     missing ones and ones below /usr are skipped ({@link HostRoot#binds})
 * @param command the agent's command line, run inside
 */
record SandboxCommand(Path bwrap, String hostname, Path shared, Path workDir, List<Path> readOnly, List<String> command) {

    /** The whole argv, starting with bwrap. */
    List<String> argv() {
        List<String> argv = new ArrayList<>(List.of(bwrap.toString(),
                "--unshare-all", "--unshare-user",
                // SIGKILL to the agent when bwrap dies; the agent's stdin-EOF watch covers this app dying.
                "--die-with-parent", "--new-session",
                "--hostname", hostname,
                "--ro-bind", "/usr", "/usr",
                "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
                // Only the kernel's transparent-huge-page mode, read-only: the agent's JVM asks for
                // them (AgentLauncher) and, with no /sys at all, prints a warning and goes without.
                "--ro-bind-try", "/sys/kernel/mm/transparent_hugepage", "/sys/kernel/mm/transparent_hugepage",
                // The app's environment may hold secrets (database passwords); the Space gets a clean one.
                "--clearenv", "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp",
                "--setenv", "LANG", "C.UTF-8"));
        HostRoot.USR_LINKS.forEach((name, target) -> argv.addAll(List.of("--symlink", target, "/" + name)));
        for (Path path : HostRoot.binds(readOnly)) {
            argv.addAll(List.of("--ro-bind", path.toString(), path.toString()));
        }
        argv.addAll(List.of("--bind", shared.toString(), shared.toString(), "--chdir", workDir.toString(), "--"));
        argv.addAll(command);
        return argv;
    }
}
