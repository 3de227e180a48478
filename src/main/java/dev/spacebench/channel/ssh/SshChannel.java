package dev.spacebench.channel.ssh;

import dev.spacebench.channel.Channel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FarDigest;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.files.Sha256;
import dev.spacebench.space.SshAccess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * A Space reached the way its SSH users reach it: Apache MINA SSHD's client over one SSH
 * connection, opened (and authenticated) before the loops and kept for them.
 *
 * <ul>
 *   <li>no-op: a global request {@code keepalive@openssh.com} with want-reply. OpenSSH answers
 *       it with a request failure (it has no such request), which is a full round trip through
 *       its connection layer and runs nothing.</li>
 *   <li>exec: one exec channel per call; SSH carries a command line, not an argv, so the argv is
 *       quoted ({@link ShellQuote}) and the server runs it with the user's login shell as
 *       {@code SHELL -c LINE}, as {@code ssh host cmd} does: an exec of {@code true} over SSH
 *       includes that shell.</li>
 *   <li>files: SFTP on one subsystem channel of the same connection, then the far side's
 *       {@code sha256sum} and {@code stat} on an exec channel, inside the caller's timed region,
 *       as the agent's digest is.</li>
 * </ul>
 *
 * <p>Host keys: only the key the Space's server was given is accepted; another fails the
 * connection with both fingerprints named. The client authenticates with the Space's own key,
 * read from its file; nothing of it is logged.
 *
 * <p>Not thread-safe for transfers' {@link #lastTransferFarNs()}; one measuring thread per channel.
 */
public final class SshChannel implements Channel {

    /** This channel's id in requests, samples and pages. */
    public static final String ID = "ssh";
    /** The global request of the no-op round trip. */
    public static final String KEEPALIVE = "keepalive@openssh.com";
    /**
     * Bytes per SFTP read or write request (several in flight). OpenSSH's sftp server takes at most
     * 256 KiB per message, header included, and closes the channel on a larger one.
     */
    private static final int SFTP_BUFFER = 128 * 1024;

    private final SshClient client;
    private final ClientSession session;
    private final SftpClient sftp;
    private final String workDir;
    private final Set<String> madeDirs = ConcurrentHashMap.newKeySet();

    private SshChannel(SshClient client, ClientSession session, SftpClient sftp, String workDir) {
        this.client = client;
        this.session = session;
        this.sftp = sftp;
        this.workDir = workDir;
    }

    /**
     * Connects, verifies the host key, authenticates with the Space's client key and opens SFTP.
     *
     * @throws SshChannelException naming what failed: the connection, a host key other than the
     *     Space's (both fingerprints), the client key refused, or SFTP
     */
    public static SshChannel open(SshAccess access, Duration timeout) {
        SshClient client = SshClient.setUpDefaultClient();
        // Only what this Space gave: no ~/.ssh/config, no default identities, no known_hosts.
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        client.setKeyIdentityProvider(new FileKeyPairProvider(access.clientKey()));
        AtomicReference<String> offered = new AtomicReference<>();
        client.setServerKeyVerifier((session, address, key) -> {
            boolean same = KeyUtils.compareKeys(access.hostKey(), key);
            if (!same) {
                offered.set(KeyUtils.getFingerPrint(key));
            }
            return same;
        });
        client.start();
        String where = access.user() + "@" + access.host() + ":" + access.port();
        ClientSession session = null;
        try {
            try {
                session = client.connect(access.user(), access.host(), access.port()).verify(timeout).getSession();
            } catch (IOException e) {
                throw new SshChannelException("could not connect to the Space's SSH server at " + where + ": " + message(e), e);
            }
            try {
                session.auth().verify(timeout);
            } catch (IOException e) {
                if (offered.get() != null) {
                    throw new SshChannelException("the SSH server at " + where + " offered host key " + offered.get()
                            + ", not the Space's " + KeyUtils.getFingerPrint(access.hostKey()) + ": connection refused", e);
                }
                throw new SshChannelException("the SSH server at " + where + " did not accept the Space's client key: " + message(e), e);
            }
            SftpClient sftp;
            try {
                sftp = SftpClientFactory.instance().createSftpClient(session);
            } catch (IOException e) {
                throw new SshChannelException("the SSH server at " + where + " opened no SFTP subsystem: " + message(e), e);
            }
            return new SshChannel(client, session, sftp, access.workDir());
        } catch (RuntimeException e) {
            closeQuietly(session);
            client.stop();
            if (offered.get() != null && !(e.getMessage() != null && e.getMessage().contains("offered host key"))) {
                throw new SshChannelException("the SSH server at " + where + " offered host key " + offered.get()
                        + ", not the Space's " + KeyUtils.getFingerPrint(access.hostKey()) + ": connection refused", e);
            }
            throw e;
        }
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public void noop(Duration timeout) {
        try {
            Buffer request = session.createBuffer(SshConstants.SSH_MSG_GLOBAL_REQUEST, KEEPALIVE.length() + 16);
            request.putString(KEEPALIVE);
            request.putBoolean(true);
            // Null is the server's REQUEST_FAILURE (OpenSSH knows no keepalive request): a reply all the same.
            session.request(KEEPALIVE, request, timeout);
        } catch (IOException e) {
            throw new SshChannelException("ssh " + KEEPALIVE + " failed: " + message(e), e);
        }
    }

    @Override
    public ExecResult exec(List<String> argv, Duration timeout) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ChannelExec channel = session.createExecChannel(ShellQuote.join(argv))) {
            channel.setOut(out);
            channel.setErr(err);
            channel.open().verify(timeout);
            Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout);
            if (events.contains(ClientChannelEvent.TIMEOUT)) {
                return new ExecResult(-1, 0, out.toByteArray(), err.toByteArray(), true);
            }
            Integer status = channel.getExitStatus();
            if (status == null) {
                String signal = channel.getExitSignal();
                throw new SshChannelException("ssh exec " + argv + " ended without an exit status"
                        + (signal == null ? "" : " (signal " + signal + ")"), null);
            }
            return new ExecResult(status, 0, out.toByteArray(), err.toByteArray(), false);
        } catch (IOException e) {
            throw new SshChannelException("ssh exec " + argv + " failed: " + message(e), e);
        }
    }

    @Override
    public FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) throws IOException {
        String path = remote(remotePath);
        try {
            makeParents(remotePath);
            try (OutputStream out = sftp.write(path, SFTP_BUFFER)) {
                Files.copy(source, out);
            }
        } catch (SftpException e) {
            throw new SshChannelException("sftp upload of " + remotePath + " failed: " + message(e), e);
        }
        FileRef stored = farDigest(path, remotePath, timeout);
        return FarDigest.verified("upload of " + remotePath + " (the far side's sha256sum)", expected, stored);
    }

    @Override
    public FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) throws IOException {
        String path = remote(remotePath);
        MessageDigest digest = Sha256.newDigest();
        long received = 0;
        try (InputStream in = sftp.read(path, SFTP_BUFFER);
             OutputStream out = Files.newOutputStream(destination, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            byte[] chunk = new byte[SFTP_BUFFER];
            for (int n; (n = in.read(chunk)) != -1; ) {
                digest.update(chunk, 0, n);
                out.write(chunk, 0, n);
                received += n;
            }
        } catch (SftpException e) {
            throw new SshChannelException("sftp download of " + remotePath + " failed: " + message(e), e);
        }
        FileRef sent = farDigest(path, remotePath, timeout);
        FarDigest.verified("download of " + remotePath + " (the far side's sha256sum)", expected, sent);
        return FarDigest.verified("download of " + remotePath + " (as received)", expected,
                new FileRef(received, HexFormat.of().formatHex(digest.digest())));
    }

    @Override
    public boolean delete(String remotePath, Duration timeout) {
        try {
            sftp.remove(remote(remotePath));
            return true;
        } catch (SftpException e) {
            if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE) {
                return false;
            }
            throw new SshChannelException("sftp remove of " + remotePath + " failed: " + message(e), e);
        } catch (IOException e) {
            throw new SshChannelException("sftp remove of " + remotePath + " failed: " + message(e), e);
        }
    }

    /** The far side's size and SHA-256 of {@code path}: {@code sha256sum} and {@code stat} on one exec channel. */
    private FileRef farDigest(String path, String remotePath, Duration timeout) {
        return FarDigest.parse(exec(FarDigest.argv(path), timeout), remotePath, why -> new SshChannelException(why, null));
    }

    /** Makes the work directory's sub-directories of {@code remotePath} once per channel (the agent makes them likewise). */
    private void makeParents(String remotePath) throws IOException {
        int slash = remotePath.lastIndexOf('/');
        if (slash <= 0) {
            return;
        }
        String parent = remotePath.substring(0, slash);
        if (madeDirs.contains(parent)) {
            return;
        }
        String made = "";
        for (String part : parent.split("/")) {
            made = made.isEmpty() ? part : made + "/" + part;
            try {
                sftp.mkdir(remote(made));
            } catch (SftpException e) {
                if (e.getStatus() != SftpConstants.SSH_FX_FILE_ALREADY_EXISTS && e.getStatus() != SftpConstants.SSH_FX_FAILURE) {
                    throw e;
                }
            }
        }
        madeDirs.add(parent);
    }

    /** {@code remotePath} inside the Space's work directory; no way out of it. */
    private String remote(String remotePath) {
        return FarDigest.inside(workDir, remotePath);
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private static void closeQuietly(ClientSession session) {
        if (session != null) {
            try {
                session.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() {
        try {
            sftp.close();
        } catch (IOException ignored) {
            // the session's close ends it too
        }
        closeQuietly(session);
        client.stop();
    }
}
