package dev.spacebench.space;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns why a kind's check failed into a reason a user can act on, and its fix: which setting of
 * this host stops bubblewrap, what podman needs, why unix sockets cannot be used.
 */
public final class KindDiagnosis {

    public static final String CONTAINER_FIX = "make `podman info` work for the user the app runs as; on hosts without systemd, "
            + "/etc/containers/containers.conf with runtime = \"runc\", cgroup_manager = \"cgroupfs\", events_logger = \"file\" "
            + "(docs/kinds.md)";
    /** For a kind whose agent listens on a unix socket, where this JVM has no epoll transport. */
    static final String UNIX_SOCKET_FIX = "start the app where Netty's native epoll transport loads (Linux on x86_64 or aarch64, "
            + "without -Dio.grpc.netty.shaded.io.netty.transport.noNative=true); meanwhile the process kind works (TCP)";
    private static final String GENERIC_FIX = "docs/kinds.md lists what each kind needs; the app's log has the full error";

    /** Why, and what to do about it. */
    record Diagnosis(String reason, String fix) {
    }

    private KindDiagnosis() {}

    /**
     * @param kind the kind whose Space could not be made
     * @param failure the error creating or reaching it (for sandbox, bwrap's own words are in it)
     * @param sysctl a sysctl's value by name (e.g. {@code user.max_user_namespaces}), empty where it
     *     does not exist here; {@link #sysctl} reads the real ones
     */
    static Diagnosis of(String kind, String failure, Function<String, Optional<String>> sysctl) {
        String said = failure == null ? "" : failure;
        if (kind.equals(SpaceKinds.SANDBOX) && said.contains("namespace")) {
            return userNamespaces(said, sysctl);
        }
        if (kind.equals(SpaceKinds.CONTAINER)) {
            return new Diagnosis("the container engine could not run the smallest container: " + said, CONTAINER_FIX);
        }
        return new Diagnosis("a " + kind + " Space could not be made here: " + said, GENERIC_FIX);
    }

    private static Diagnosis userNamespaces(String failure, Function<String, Optional<String>> sysctl) {
        if (sysctl.apply("user.max_user_namespaces").filter("0"::equals).isPresent()) {
            return new Diagnosis("bwrap cannot create a user namespace: user.max_user_namespaces is 0",
                    "set sysctl user.max_user_namespaces=15000 (sysctl -w user.max_user_namespaces=15000; "
                            + "a file in /etc/sysctl.d keeps it after a reboot)");
        }
        if (sysctl.apply("kernel.unprivileged_userns_clone").filter("0"::equals).isPresent()) {
            return new Diagnosis("bwrap cannot create a user namespace: kernel.unprivileged_userns_clone is 0",
                    "set sysctl kernel.unprivileged_userns_clone=1");
        }
        if (sysctl.apply("kernel.apparmor_restrict_unprivileged_userns").filter("1"::equals).isPresent()) {
            return new Diagnosis("bwrap cannot create a user namespace: AppArmor restricts unprivileged user namespaces "
                    + "(kernel.apparmor_restrict_unprivileged_userns is 1)",
                    "set sysctl kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile with userns");
        }
        return new Diagnosis("bwrap cannot create its namespaces: " + bwrapLine(failure),
                "allow user namespaces for the user the app runs as (inside a container: run it with a seccomp profile "
                        + "that allows unshare and clone of namespaces, e.g. --security-opt seccomp=unconfined)");
    }

    /** bwrap's own line from the failure, or the whole failure. */
    private static String bwrapLine(String failure) {
        int at = failure.indexOf("bwrap:");
        return at < 0 ? failure : failure.substring(at);
    }

    /** A sysctl's value on this host (its file under /proc/sys, trimmed), or empty where there is none. */
    static Optional<String> sysctl(String name) {
        try {
            // By lines: readString of a /proc/sys file (size 0) returns its first byte alone on kernel 6.18.
            return Optional.of(String.join("\n", Files.readAllLines(Path.of("/proc/sys", name.replace('.', '/')))).strip());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
