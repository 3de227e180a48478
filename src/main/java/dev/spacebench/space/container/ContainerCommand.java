package dev.spacebench.space.container;

import dev.spacebench.space.limits.CpuSet;
import dev.spacebench.space.limits.CpuShape;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code podman run} / {@code docker run} command line for a container Space: no network, a
 * read-only root, the shared directory read-write and the token read-only at their host paths,
 * CPUs and memory as asked. The root is an image, or (podman only, {@code image} null) the host's
 * OS through {@link HostRoot}: a skeleton directory as {@code --rootfs} with an overlay on top,
 * the host's /usr and the agent's JVM and class path mounted read-only.
 *
 * @param cli podman or docker
 * @param name the container's name, unique per Space
 * @param shared the host directory shared read-write (agent socket, work and bulk dirs)
 * @param workDir where the agent starts, below {@code shared}
 * @param token the token file, mounted read-only
 * @param image the image to run, or null for the host's OS
 * @param rootfs with no image: the skeleton root directory; ignored otherwise
 * @param readOnly with no image: the host paths the agent needs read-only ({@link AgentLauncher#hostPaths()})
 * @param cpus the CPU shape, or null when none was asked
 * @param memoryMiB the memory limit in MiB, or null
 * @param command the agent's command line inside
 * @param extra what the Space needs beyond the agent: the engine's runtime, a network with a published port, more mounts
 */
record ContainerCommand(ContainerCli cli, String name, Path shared, Path workDir, Path token, String image, Path rootfs,
        List<Path> readOnly, CpuShape cpus, Long memoryMiB, List<String> command, Extra extra) {

    /**
     * @param engineOptions the engine's own options, before {@code run} (e.g. {@code --runtime}); none by default
     * @param network the network options; {@code --network none} by default
     * @param mounts more {@code -v} options, each a whole {@code SRC:DST[:ro]}
     */
    record Extra(List<String> engineOptions, List<String> network, List<String> mounts) {
        static final Extra NONE = new Extra(List.of(), List.of("--network", "none"), List.of());
    }

    List<String> argv() {
        List<String> argv = new ArrayList<>(List.of(cli.binary().toString()));
        argv.addAll(extra.engineOptions());
        argv.addAll(List.of("run", "--rm",
                // -i keeps the agent's stdin open: it exits when this app (or the client) goes away.
                "-i", "--name", name, "--hostname", name));
        argv.addAll(extra.network());
        argv.addAll(List.of(
                // docker's --read-only, unlike podman's, leaves /tmp read-only too; the JVM writes there.
                "--read-only", "--tmpfs", "/tmp"));
        argv.addAll(ulimits());
        if (cpus != null && cpus.pinned()) {
            argv.addAll(List.of("--cpuset-cpus", CpuSet.format(cpus.cpus())));
        }
        if (cpus != null && cpus.quota() != null) {
            argv.addAll(List.of("--cpus", String.format(Locale.ROOT, "%.3f", cpus.quota())));
        }
        if (memoryMiB != null) {
            // Swap included in the limit, so it is not dodged by swapping.
            argv.addAll(List.of("--memory", memoryMiB + "m", "--memory-swap", memoryMiB + "m"));
        }
        argv.addAll(List.of("-v", shared + ":" + shared, "-v", token + ":" + token + ":ro", "--workdir", workDir.toString()));
        for (String mount : extra.mounts()) {
            argv.addAll(List.of("-v", mount));
        }
        if (image != null) {
            argv.addAll(List.of("--pull", "never", image));
        } else {
            argv.addAll(List.of("-v", "/usr:/usr:ro"));
            for (Path path : HostRoot.binds(readOnly)) {
                argv.addAll(List.of("-v", path + ":" + path + ":ro"));
            }
            // ":O" lays an overlay on the skeleton, so podman's mount points do not land in it.
            argv.addAll(List.of("--rootfs", rootfs + ":O"));
        }
        argv.addAll(command);
        return argv;
    }

    /**
     * Open-file and process limits, given explicitly: podman as root otherwise asks for 1048576 of
     * each, which fails where the host withholds CAP_SYS_RESOURCE, as on our build machines
     * ("error setting rlimit type 7"). This process's own limits can always be kept, except that
     * podman lowers its own process limit to kernel.pid_max first, so no more than that.
     */
    static List<String> ulimits() {
        List<String> options = new ArrayList<>();
        try {
            // By lines: JDK 17's readString of a /proc/sys file (size 0) returns its first byte alone on kernel 6.18
            // ("3" for 32768), which gave containers nproc=3; runc as root ignores it, gVisor does not.
            long pidMax = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/kernel/pid_max")).get(0).trim());
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                boolean files = line.startsWith("Max open files");
                boolean processes = line.startsWith("Max processes");
                if (files || processes) {
                    // "Max open files            20000                20000                files"
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    long cap = processes ? pidMax : Long.MAX_VALUE;
                    options.addAll(List.of("--ulimit", (files ? "nofile" : "nproc") + "=" + limit(f[0], cap) + ":" + limit(f[1], cap)));
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // the engine's defaults then
        }
        return options;
    }

    private static long limit(String value, long cap) {
        return value.equals("unlimited") ? cap : Math.min(Long.parseLong(value), cap);
    }
}
