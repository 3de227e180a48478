package dev.spacebench.space.container;

import dev.spacebench.space.FileTrees;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceProvider.Availability;
import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The OCI runtimes a container Space may ask for ({@code space.runtime}): {@code runc} (the
 * engine's configured default, which the kind's own check proves) and {@code runsc}, gVisor, whose
 * user-space kernel serves the container's system calls. Whether runsc runs here is known by
 * running the smallest container with it ({@link #check}), when the kind is checked.
 *
 * <p>runsc with podman needs two of its own flags, given with {@code --runtime-flag}:
 * {@code host-uds=all}, so the agent's unix socket in the shared directory can be reached from
 * the host, and a network: {@code network=none} for a Space without one, {@code network=host} for
 * a Space with a published port (its sockets then served by the host kernel in the container's own
 * network namespace: gVisor's netstack refuses podman's namespace here).
 */
final class ContainerRuntimes {

    static final String RUNC = SpaceKinds.CONTAINER_RUNTIMES.get(0);
    static final String RUNSC = SpaceKinds.CONTAINER_RUNTIMES.get(1);
    /** What {@code space.runtime} may be. */
    static final List<String> KNOWN = SpaceKinds.CONTAINER_RUNTIMES;
    static final String RUNSC_FIX = "apt-get install runsc, run the app as root with podman (gVisor's podman support here is rootful), "
            + "and check `podman --runtime /usr/bin/runsc --runtime-flag network=none run --rm --rootfs DIR true`";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

    private volatile Availability runsc;

    /** The runtime a spec gets: its own, or runc. */
    static String of(String asked) {
        return asked == null || asked.isBlank() ? RUNC : asked;
    }

    /**
     * What is known of {@code runtime} here: runc as the kind itself; runsc as its last {@link #check}
     * found, or "not checked yet".
     */
    Availability availability(String runtime, ContainerCli cli) {
        if (RUNC.equals(runtime)) {
            return Availability.yes();
        }
        Optional<String> cannot = prerequisites(cli);
        if (cannot.isPresent()) {
            return Availability.no(cannot.get(), RUNSC_FIX);
        }
        Availability known = runsc;
        return known != null ? known : Availability.no("runsc has not been checked yet: it is checked with the container kind "
                + "(at start, and on \"Check kinds again\")", "wait for the container kind's check, or POST /api/kinds/check");
    }

    /**
     * Runs {@code true} in the smallest runsc container ({@code --network none}, the host's /usr, a
     * skeleton root in a temporary directory) and keeps what it found.
     */
    Availability check(ContainerCli cli) {
        Optional<String> cannot = prerequisites(cli);
        if (cannot.isPresent()) {
            runsc = Availability.no(cannot.get(), RUNSC_FIX);
            return runsc;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("spacebench-runsc-check-");
            Path rootfs = HostRoot.skeleton(dir.resolve("rootfs"));
            List<String> args = new ArrayList<>(engineOptions(RUNSC, false));
            args.addAll(List.of("run", "--rm", "--network", "none", "--read-only"));
            args.addAll(ContainerCommand.ulimits());
            args.addAll(List.of("-v", "/usr:/usr:ro", "--rootfs", rootfs + ":O", "/usr/bin/true"));
            ContainerCli.Result ran = cli.run(PROBE_TIMEOUT, args.toArray(String[]::new));
            runsc = ran.ok() ? Availability.yes()
                    : Availability.no("podman could not run a container with runsc (gVisor): " + ran.lastLine(), RUNSC_FIX);
        } catch (IOException e) {
            runsc = Availability.no("could not make the runsc check's root directory: " + e.getMessage(), "");
        } finally {
            if (dir != null) {
                FileTrees.deleteQuietly(dir);
            }
        }
        return runsc;
    }

    /** The engine's options before {@code run} for {@code runtime}; none for runc (the engine's default). */
    static List<String> engineOptions(String runtime, boolean network) {
        if (!RUNSC.equals(runtime)) {
            return List.of();
        }
        return List.of("--runtime", runscPath().map(Path::toString).orElse(RUNSC), "--runtime-flag", "host-uds=all",
                "--runtime-flag", network ? "network=host" : "network=none");
    }

    static Optional<Path> runscPath() {
        return Executables.onPath(RUNSC);
    }

    /** Why runsc cannot even be tried: not installed, or an engine other than podman. */
    private static Optional<String> prerequisites(ContainerCli cli) {
        if (runscPath().isEmpty()) {
            return Optional.of("runsc (gVisor) is not installed (Debian package runsc)");
        }
        if (cli == null || !cli.isPodman()) {
            return Optional.of("runsc is only used through podman here (" + (cli == null ? "no container engine" : cli.name()) + " was found)");
        }
        return Optional.empty();
    }
}
