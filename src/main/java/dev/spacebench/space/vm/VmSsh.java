package dev.spacebench.space.vm;

import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.local.OpenSshServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

/**
 * A real OpenSSH server in a VM Space: the host's own {@code /usr/sbin/sshd}, which the guest sees
 * with the rest of the host's /usr over 9p, started by the guest's /init as
 * {@code sshd -D -e -f <generated config>} on the guest's address, port {@value #GUEST_PORT}. QEMU's
 * restricted user network forwards one more port from the host's 127.0.0.1 to it (its only other
 * way in besides the agent's). Key authentication only; host and client keys made for this Space
 * ({@link OpenSshServer#prepare}). The server dies with the VM.
 *
 * <p>What sshd needs besides its binary and libraries goes into the initramfs, owned by root: the
 * server's files (host key 0600, {@code authorized_keys}, {@code sshd_config}) under
 * {@value #GUEST_DIR}, an {@code /etc/passwd} with root (home: the work directory, shell: busybox's
 * sh) and sshd's privilege-separation user, and that user's empty chroot {@code /run/sshd} (0755).
 * sshd's log is the guest console, so the host sees it in {@code console.log} and waits there for
 * "Server listening".
 *
 * <pre>
 * ROOT/vm-N/ssh/
 *   client_key       the client's key (0600): never in the guest
 *   server/          host_key (0600), authorized_keys, sshd_config: copied into the initramfs
 * </pre>
 */
final class VmSsh {

    /** The port sshd listens on in the guest. */
    static final int GUEST_PORT = 22;
    /** Where the server's files are in the guest. */
    static final String GUEST_DIR = "/etc/spacebench-ssh";
    private static final String USER = "root";
    /** What the guest's /init prints when sshd ends; the host stops waiting for it then. */
    private static final String EXITED = VmGuest.CONSOLE_PREFIX + "sshd exited with ";

    private final String guestAddress;
    private final String workDir;
    private final OpenSshServer.ServerFiles files;
    private final byte[] config;
    private final byte[] hostKey;
    private final byte[] authorizedKeys;

    private VmSsh(String guestAddress, String workDir, OpenSshServer.ServerFiles files, byte[] config, byte[] hostKey, byte[] authorizedKeys) {
        this.guestAddress = guestAddress;
        this.workDir = workDir;
        this.files = files;
        this.config = config;
        this.hostKey = hostKey;
        this.authorizedKeys = authorizedKeys;
    }

    /**
     * Makes the keys and the guest's config in {@code spaceDir/ssh} (0700).
     *
     * @param guestAddress where sshd listens in the guest (the user network's guest address)
     * @param workDir the Space's work directory, at the same path in the guest: root's home, and where remote paths start
     */
    static VmSsh prepare(Path spaceDir, String guestAddress, Path workDir) throws IOException {
        Path dir = Files.createDirectory(spaceDir.resolve("ssh"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path server = Files.createDirectory(dir.resolve("server"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        OpenSshServer.ServerFiles files = OpenSshServer.prepare(server, dir, guestAddress, GUEST_PORT, USER);
        // The guest reads the files at GUEST_DIR, not at their host paths: the host's copy of the config says so too.
        String config = OpenSshServer.config(guestAddress, GUEST_PORT, Path.of(GUEST_DIR, "host_key"), Path.of(GUEST_DIR, "authorized_keys"), USER);
        Files.writeString(files.config(), config);
        return new VmSsh(guestAddress, workDir.toString(), files, config.getBytes(StandardCharsets.UTF_8),
                Files.readAllBytes(server.resolve("host_key")), Files.readAllBytes(server.resolve("authorized_keys")));
    }

    /** Adds sshd's files to the initramfs; {@code etc} and {@code run} must be there already. */
    void addTo(Cpio cpio) throws IOException {
        cpio.directory(GUEST_DIR.substring(1));
        cpio.directory("run/sshd");
        cpio.file(GUEST_DIR.substring(1) + "/sshd_config", 0644, config);
        cpio.file(GUEST_DIR.substring(1) + "/host_key", 0600, hostKey);
        cpio.file(GUEST_DIR.substring(1) + "/authorized_keys", 0600, authorizedKeys);
        cpio.file("etc/passwd", 0644, (USER + ":x:0:0:root:" + workDir + ":/bin/sh\n"
                + "sshd:x:100:65534::/run/sshd:/usr/sbin/nologin\n").getBytes(StandardCharsets.UTF_8));
        cpio.file("etc/group", 0644, "root:x:0:\nnogroup:x:65534:\n".getBytes(StandardCharsets.UTF_8));
        cpio.file("etc/nsswitch.conf", 0644, "passwd: files\ngroup: files\nshadow: files\n".getBytes(StandardCharsets.UTF_8));
    }

    /** The /init line that starts sshd in the background, its log on the console; run once the network is up. */
    String initLine() {
        return "( " + OpenSshServer.SSHD + " -D -e -f " + GUEST_DIR + "/sshd_config </dev/null 2>&1; echo '" + EXITED + "'$? ) &\n";
    }

    /**
     * Waits until the guest's sshd says it listens.
     *
     * @param console the guest console's log, where sshd logs
     * @param hostPort the host's 127.0.0.1 port QEMU forwards to the guest's sshd
     * @throws SpaceException if sshd exits or does not listen within {@code timeout}, with the console's last lines
     *     (its log is the console's)
     */
    SshAccess await(Path console, int hostPort, Duration timeout) throws SpaceException {
        OpenSshServer.awaitListening(console, "Server listening on " + guestAddress + " port " + GUEST_PORT + ".", EXITED, timeout,
                "the guest's sshd");
        return new SshAccess("127.0.0.1", hostPort, USER, files.hostKey(), files.clientKey(), workDir);
    }
}
