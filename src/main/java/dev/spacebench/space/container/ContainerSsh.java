package dev.spacebench.space.container;

import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.OpenSshServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A real OpenSSH server in a container Space: the host's own {@code /usr/sbin/sshd} (the container's
 * root is the host's /usr, read-only), started with {@code podman exec -d} once the agent is ready,
 * listening on port 22 of the container's own network namespace, which the engine publishes on
 * 127.0.0.1 only ({@code -p 127.0.0.1:PORT:22}). Key authentication only; host and client keys
 * made for this Space ({@link OpenSshServer#prepare}). The server dies with the container.
 *
 * <pre>
 * ROOT/container-N/ssh/
 *   client_key       the client's key (0600): not mounted into the container
 *   passwd, group    the container's /etc/passwd and /etc/group (read-only): root, whose home is the
 *                    work directory, and sshd's privilege-separation user, as the host has them
 *   sshd.log         the server's stderr (the only file it writes)
 *   server/          mounted read-only at the same path: host_key (0600), authorized_keys, sshd_config
 * </pre>
 */
final class ContainerSsh {

    /** The port sshd listens on inside the container. */
    static final int PORT_INSIDE = 22;
    private static final String USER = "root";

    private final Path dir;
    private final Path log;
    private final int port;
    private final OpenSshServer.ServerFiles files;
    private final String workDir;

    private ContainerSsh(Path dir, Path log, int port, OpenSshServer.ServerFiles files, String workDir) {
        this.dir = dir;
        this.log = log;
        this.port = port;
        this.files = files;
        this.workDir = workDir;
    }

    /**
     * Why no SSH server can run in this kind's containers here; empty when it can.
     *
     * @param image the configured image, or null for the host's OS
     */
    static Optional<String> unavailable(ContainerCli cli, String image) {
        Optional<String> missing = OpenSshServer.unavailable();
        if (missing.isPresent()) {
            return missing;
        }
        if (image != null) {
            return Optional.of("the container runs the image " + image + " (spacebench.space.container.image), and only a container "
                    + "with the host's OS as its root has the host's sshd; leave that setting blank");
        }
        if (cli != null && !cli.isPodman()) {
            return Optional.of(cli.name() + " cannot run the host's OS as a container's root; use podman");
        }
        return Optional.empty();
    }

    /** Keys, config and the container's user files in {@code spaceDir/ssh}, and a free host port to publish. */
    static ContainerSsh prepare(Path spaceDir, Path workDir) throws IOException {
        Path dir = Files.createDirectory(spaceDir.resolve("ssh"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path server = Files.createDirectory(dir.resolve("server"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        int port = OpenSshServer.freePort();
        OpenSshServer.ServerFiles files = OpenSshServer.prepare(server, dir, "0.0.0.0", PORT_INSIDE, USER);
        List<String> host = Files.readAllLines(Path.of("/etc/passwd"));
        String shell = field(host, USER, 6).orElse("/bin/sh");
        String sshdUid = field(host, "sshd", 2).orElse("100");
        Files.writeString(dir.resolve("passwd"), USER + ":x:0:0:root:" + workDir + ":" + shell + "\n"
                + "sshd:x:" + sshdUid + ":65534::/run/sshd:/usr/sbin/nologin\n");
        Files.writeString(dir.resolve("group"), "root:x:0:\nnogroup:x:65534:\n");
        Path log = Files.createFile(dir.resolve("sshd.log"));
        return new ContainerSsh(dir, log, port, files, workDir.toString());
    }

    /** The port published on the host's 127.0.0.1; podman's default network, which a published port needs. */
    List<String> network() {
        return List.of("--publish", "127.0.0.1:" + port + ":" + PORT_INSIDE);
    }

    /** The server's files read-only, its log and the user files, each at the same path as on the host. */
    List<String> mounts() {
        Path server = files.config().getParent();
        return List.of(server + ":" + server + ":ro", log + ":" + log,
                dir.resolve("passwd") + ":/etc/passwd:ro", dir.resolve("group") + ":/etc/group:ro");
    }

    int port() {
        return port;
    }

    /**
     * Starts sshd in the running container and waits until it listens.
     *
     * @throws SpaceException if it exits or does not listen within {@code timeout}, with its log's last lines
     */
    SshAccess start(ContainerCli cli, String container, Duration timeout) throws SpaceException {
        // /run is the container's own tmpfs: sshd's privilege-separation directory is made there, as Debian's service would.
        ContainerCli.Result started = cli.run(timeout, "exec", "--detach", container, "sh", "-c",
                "mkdir -p /run/sshd && exec " + OpenSshServer.SSHD + " -D -e -f \"$1\" 2>>\"$2\"", "sh",
                files.config().toString(), log.toString());
        if (!started.ok()) {
            throw new SpaceException("could not start sshd in the container: " + started.lastLine());
        }
        OpenSshServer.awaitListening(log, "Server listening on 0.0.0.0 port " + PORT_INSIDE + ".", "fatal:", timeout,
                "the container's sshd");
        return new SshAccess("127.0.0.1", port, USER, files.hostKey(), files.clientKey(), workDir);
    }

    /** Field {@code index} (0-based) of {@code user}'s line in a passwd file. */
    private static Optional<String> field(List<String> passwd, String user, int index) {
        return passwd.stream().filter(l -> l.startsWith(user + ":")).map(l -> l.split(":", -1))
                .filter(f -> f.length > index && !f[index].isBlank()).map(f -> f[index]).findFirst();
    }
}
