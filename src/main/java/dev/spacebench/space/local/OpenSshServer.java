package dev.spacebench.space.local;

import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SshAccess;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;

/**
 * A real OpenSSH server (Debian's {@code openssh-server}) in a Space that runs on this host's
 * network: {@code sshd -D -e -f <generated config>} on 127.0.0.1 and a free port, public-key
 * authentication only, with a host key and a client key made for this Space alone, all in
 * {@code <space dir>/ssh/} (the private keys mode 0600; nothing of them is logged or shown).
 *
 * <pre>
 * ROOT/KIND-N/ssh/
 *   sshd_config        generated (below)
 *   host_key           the server's ECDSA P-256 key (0600); the client accepts its public half only
 *   client_key         the client's ECDSA P-256 key (0600), OpenSSH format
 *   authorized_keys    the client key's public half, the only one the server accepts
 *   sshd.log           the server's stderr ({@code -e})
 * </pre>
 *
 * <p>{@code StrictModes no}: sshd would check every directory from the authorized_keys file up to
 * {@code /}, and refuse a Spaces root under {@code /tmp} (world-writable, sticky) although the
 * Space's own directory is the app's alone. As root, sshd needs its privilege-separation directory
 * {@code /run/sshd}, which Debian's service makes at boot and a machine without the service lacks:
 * it is made (0755) when missing, as that service would.
 */
public final class OpenSshServer {

    /** Debian's sshd. */
    public static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Path PRIVSEP_DIR = Path.of("/run/sshd");
    private static final String OWNER_ONLY = "rw-------";
    /** Tries when the free port found was taken by someone else before sshd bound it. */
    private static final int PORT_TRIES = 3;

    private OpenSshServer() {}

    /** Why no SSH server can be started here, naming the package that brings one; empty when it can. */
    public static Optional<String> unavailable() {
        return Files.isExecutable(SSHD) ? Optional.empty()
                : Optional.of(SSHD + " is missing (Debian package openssh-server)");
    }

    /**
     * Makes the keys and config in {@code dir/ssh}, starts sshd and waits until it listens.
     * Registers the server's removal with {@code launch} as soon as it runs, so a failure after
     * that (or the Space's delete) kills it.
     *
     * @param environment added to sshd's (e.g. the Space's mark); sshd gives its sessions an environment of its own
     * @param workDir the Space's work directory as the server sees it
     * @return how the SSH channel reaches it
     * @throws SpaceException if sshd is missing, exits, or does not listen within {@code timeout}; the message
     *     carries the last lines of its log
     */
    public static SshAccess start(Path dir, Map<String, String> environment, String workDir, Duration timeout,
            LocalSpaceProvider.Launch launch) throws IOException, SpaceException {
        Optional<String> missing = unavailable();
        if (missing.isPresent()) {
            throw new SpaceException("cannot start an SSH server in the Space: " + missing.get());
        }
        Path ssh = Files.createDirectory(dir.resolve("ssh"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        String user = System.getProperty("user.name");
        if ("root".equals(user) && !Files.isDirectory(PRIVSEP_DIR)) {
            Files.createDirectories(PRIVSEP_DIR, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        }
        Path log = ssh.resolve("sshd.log");
        long deadline = System.nanoTime() + timeout.toNanos();
        int port = freePort();
        ServerFiles files = prepare(ssh, ssh, "127.0.0.1", port, user);
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1) {
                port = freePort();
                Files.writeString(files.config(), config("127.0.0.1", port, ssh.resolve("host_key"), ssh.resolve("authorized_keys"), user));
            }
            Path config = files.config();
            ProcessBuilder builder = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process sshd = builder.start();
            launch.also(() -> ProcessTrees.kill(sshd.toHandle()));
            String listening = "Server listening on 127.0.0.1 port " + port + ".";
            while (true) {
                if (logHas(log, listening)) {
                    return new SshAccess("127.0.0.1", port, user, files.hostKey(), files.clientKey(), workDir);
                }
                if (!sshd.isAlive()) {
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new SpaceException("the Space's sshd did not listen within " + timeout.toMillis() + " ms"
                            + AgentProcess.tail(log, "sshd"));
                }
                sleep();
            }
            boolean portTaken = logHas(log, "Address already in use");
            if (!portTaken || attempt >= PORT_TRIES) {
                throw new SpaceException("the Space's sshd exited" + AgentProcess.exitCode(sshd) + " before it listened" + AgentProcess.tail(log, "sshd"));
            }
        }
    }

    /**
     * The keys and config of a server that runs elsewhere (in a container) and sees
     * {@code serverDir} at the same path: host key, {@code authorized_keys} and {@code sshd_config}
     * there; the client's key in {@code clientDir}, which the server need not see. Each private key
     * mode 0600, made for this Space alone. Both directories must exist.
     *
     * @param listenAddress where sshd listens in its own network namespace
     * @param user the one user it lets in
     */
    public static ServerFiles prepare(Path serverDir, Path clientDir, String listenAddress, int port, String user) throws IOException {
        KeyPair host = newKeyPair();
        KeyPair client = newKeyPair();
        Path hostKey = writePrivateKey(serverDir.resolve("host_key"), host);
        Path clientKey = writePrivateKey(clientDir.resolve("client_key"), client);
        Path authorized = ownerOnly(serverDir.resolve("authorized_keys"));
        Files.writeString(authorized, PublicKeyEntry.toString(client.getPublic()) + " spacebench\n");
        Path config = serverDir.resolve("sshd_config");
        Files.writeString(config, config(listenAddress, port, hostKey, authorized, user));
        return new ServerFiles(config, host.getPublic(), clientKey);
    }

    /**
     * @param config the generated {@code sshd_config}
     * @param hostKey the public half of the server's key: the only one the client accepts
     * @param clientKey the client's private key file (0600)
     */
    public record ServerFiles(Path config, java.security.PublicKey hostKey, Path clientKey) {
    }

    /**
     * The server's config: this address and port only, key authentication only, for this user
     * only, the generated host key and authorized_keys, SFTP in process, no forwarding or TTY.
     */
    public static String config(String listenAddress, int port, Path hostKey, Path authorizedKeys, String user) {
        return String.join("\n", List.of(
                "# made by Spacebench for one Space; removed with it",
                "ListenAddress " + listenAddress,
                "Port " + port,
                "HostKey " + hostKey,
                "PidFile none",
                "AuthorizedKeysFile " + authorizedKeys,
                "AuthenticationMethods publickey",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "HostbasedAuthentication no",
                "UsePAM no",
                "AllowUsers " + user,
                "PermitRootLogin prohibit-password",
                "StrictModes no",
                "Subsystem sftp internal-sftp",
                "AllowTcpForwarding no",
                "AllowAgentForwarding no",
                "AllowStreamLocalForwarding no",
                "X11Forwarding no",
                "PermitTunnel no",
                "PermitTTY no",
                "PermitUserRC no",
                "PrintMotd no",
                "UseDNS no",
                "MaxStartups 100",
                "MaxSessions 100",
                "")) ;
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make an ECDSA P-256 key: " + e.getMessage(), e);
        }
    }

    private static Path writePrivateKey(Path file, KeyPair pair) throws IOException {
        ownerOnly(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, "spacebench", null, out);
        } catch (GeneralSecurityException e) {
            throw new IOException("could not write the key " + file.getFileName() + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** Creates {@code file} owner-only from the start, so no other user can read it in between. */
    private static Path ownerOnly(Path file) throws IOException {
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_ONLY)));
    }

    /** A free TCP port on 127.0.0.1 now (someone else may take it before it is bound). */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Waits until {@code log} says a server that runs elsewhere (in a container, in a guest) listens.
     *
     * @param listening the line sshd logs once it listens, e.g. {@code Server listening on 0.0.0.0 port 22.}
     * @param gone text that means sshd will not listen (its log then holds why)
     * @param server for the message, e.g. "the container's sshd"
     * @throws SpaceException if {@code gone} shows or {@code timeout} passes first, with the log's last lines
     */
    public static void awaitListening(Path log, String listening, String gone, Duration timeout, String server) throws SpaceException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!logHas(log, listening)) {
            if (logHas(log, gone)) {
                throw new SpaceException(server + " failed before it listened" + AgentProcess.tail(log, log.getFileName().toString()));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new SpaceException(server + " did not listen within " + timeout.toMillis() + " ms"
                        + AgentProcess.tail(log, log.getFileName().toString()));
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SpaceException("interrupted while waiting for " + server);
            }
        }
    }

    /** {@code others} and {@code ssh} where sshd can be started here ({@link #unavailable}), else {@code others} alone. */
    public static java.util.Set<String> servedWithSsh(String... others) {
        java.util.Set<String> served = new java.util.HashSet<>(List.of(others));
        if (unavailable().isEmpty()) {
            served.add(dev.spacebench.space.SpaceChannels.SSH);
        }
        return java.util.Set.copyOf(served);
    }

    /** A kind's refusal of {@code channels}, with why no sshd can run here added when they name {@code ssh}. */
    public static Optional<String> whySshToo(Optional<String> refusal, java.util.Set<String> channels) {
        return refusal.map(why -> channels.contains(dev.spacebench.space.SpaceChannels.SSH)
                ? why + unavailable().map(missing -> " (ssh: " + missing + ")").orElse("") : why);
    }

    /** Whether {@code log} holds {@code text} yet (false while it cannot be read). */
    public static boolean logHas(Path log, String text) {
        try {
            return Files.readString(log, StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep() throws SpaceException {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SpaceException("interrupted while waiting for the Space's sshd");
        }
    }
}
