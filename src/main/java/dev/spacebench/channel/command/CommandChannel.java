package dev.spacebench.channel.command;

import dev.spacebench.channel.Channel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.channel.TransferException;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Space reached the way an operator's own tools reach it: each call runs one of the target's
 * commands on this host ({@link GroupCommand}: its own process group, killed at the command's
 * timeout).
 *
 * <ul>
 *   <li>no-op: none (every call runs a command); skipped with that reason.</li>
 *   <li>exec: the target's {@code exec} with {@code {argv}} replaced by the command's words.</li>
 *   <li>files: the target's {@code upload} / {@code download}, then {@code sha256sum} of the
 *       Space's copy through {@code exec}, inside the caller's timed region, as
 *       the agent's digest is; a download is hashed on the host as well. Without both commands the
 *       file metrics are skipped with the reason.</li>
 * </ul>
 */
public final class CommandChannel implements Channel {

    /** This channel's id in requests, samples and pages. */
    public static final String ID = "command";

    private final CommandAccess access;
    private final Set<String> madeDirs = ConcurrentHashMap.newKeySet();

    public CommandChannel(CommandAccess access) {
        this.access = access;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Optional<String> unsupported(Operation operation) {
        CommandTarget target = access.target();
        return switch (operation) {
            case NOOP -> Optional.of("a command target has no round trip that runs nothing: each call runs one of its commands");
            case EXEC -> Optional.empty();
            case FILES -> target.movesFiles() ? Optional.empty()
                    : Optional.of("target '" + target.name() + "' defines no " + (target.upload() == null ? "upload" : "download")
                    + " command in the targets file");
        };
    }

    @Override
    public void noop(Duration timeout) {
        throw new UnsupportedOperationException(unsupported(Operation.NOOP).orElseThrow());
    }

    /** Runs the target's {@code exec} with {@code argv} in place of {@code {argv}}, for at most the target's exec timeout. */
    @Override
    public ExecResult exec(List<String> argv, Duration timeout) {
        GroupCommand.Result result = GroupCommand.run(access.target().exec().expand(values(null, null), argv), access.target().exec().timeout());
        return new ExecResult(result.exitCode(), 0, result.stdout(), result.stderr(), result.timedOut());
    }

    @Override
    public FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) throws IOException {
        String remote = remote(remotePath);
        makeParents(remotePath);
        run("upload", access.target().upload(), values(source.toAbsolutePath().toString(), remote), remotePath);
        FileRef stored = farDigest(remote, remotePath, expected);
        return verified("upload of " + remotePath + " (the far side's sha256sum)", expected, stored);
    }

    @Override
    public FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) throws IOException {
        String remote = remote(remotePath);
        if (Files.exists(destination)) {
            throw new IOException("download destination exists already: " + destination);
        }
        run("download", access.target().download(), values(destination.toAbsolutePath().toString(), remote), remotePath);
        FileRef sent = farDigest(remote, remotePath, expected);
        verified("download of " + remotePath + " (the far side's sha256sum)", expected, sent);
        if (!Files.isRegularFile(destination)) {
            throw new TransferException("download of " + remotePath + ": the target's download command exited 0 but wrote no file "
                    + "at {local}");
        }
        Sha256.Result received = Sha256.of(destination);
        return verified("download of " + remotePath + " (as received)", expected, new FileRef(received.size(), received.sha256()));
    }

    @Override
    public boolean delete(String remotePath, Duration timeout) {
        ExecResult result = exec(List.of("rm", "--", remote(remotePath)), timeout);
        return result.exitCode() == 0;
    }

    @Override
    public void close() {
        // Nothing held between calls: every call is a process of its own.
    }

    private Map<String, String> values(String local, String remote) {
        Map<String, String> values = new HashMap<>();
        if (access.id() != null) {
            values.put(CommandStep.ID, access.id());
        }
        if (local != null) {
            values.put(CommandStep.LOCAL, local);
            values.put(CommandStep.REMOTE, remote);
        }
        return values;
    }

    /** Runs a file command; anything but exit 0 in time fails the transfer with the reason. */
    private void run(String field, CommandStep step, Map<String, String> values, String remotePath) {
        GroupCommand.Result result = GroupCommand.run(step.expand(values, List.of()), step.timeout());
        if (result.timedOut()) {
            throw new CommandTargetException("target '" + access.target().name() + "': its " + field + " command for " + remotePath
                    + " did not end within " + step.timeout().toMillis() + " ms; its process group was killed" + result.stderrHead());
        }
        if (result.exitCode() != 0) {
            throw new CommandTargetException("target '" + access.target().name() + "': its " + field + " command for " + remotePath
                    + " exited with " + result.exitCode() + result.stderrHead());
        }
    }

    /**
     * The far side's SHA-256 of {@code path}: {@code sha256sum -- PATH} through the target's exec, words
     * without quoting, so that a target whose exec hands a line to a shell (ssh) runs it the same.
     * Equal digests mean equal bytes, so the size is not asked separately: it is {@code expected}'s when they match.
     */
    private FileRef farDigest(String path, String remotePath, FileRef expected) {
        ExecResult result = exec(List.of("sha256sum", "--", path), null);
        String out = new String(result.stdout(), StandardCharsets.UTF_8).strip();
        if (result.exitCode() != 0 || out.isEmpty()) {
            throw new CommandTargetException("target '" + access.target().name() + "': the far side's sha256sum of " + remotePath
                    + " failed (exit code " + result.exitCode() + ")" + GroupCommand.stderrHead(result.stderr()));
        }
        String sha = out.split("\\s+", 2)[0];
        return new FileRef(sha.equalsIgnoreCase(expected.sha256()) ? expected.size() : -1, sha);
    }

    /** Makes the work directory's sub-directories of {@code remotePath} once per channel, through exec. */
    private void makeParents(String remotePath) {
        int slash = remotePath.lastIndexOf('/');
        if (slash <= 0 || madeDirs.contains(remotePath.substring(0, slash))) {
            return;
        }
        String parent = remote(remotePath.substring(0, slash));
        ExecResult result = exec(List.of("mkdir", "-p", "--", parent), null);
        if (result.exitCode() != 0) {
            throw new CommandTargetException("target '" + access.target().name() + "': mkdir -p " + parent + " exited with "
                    + result.exitCode() + GroupCommand.stderrHead(result.stderr()));
        }
        madeDirs.add(remotePath.substring(0, slash));
    }

    /** {@code remotePath} inside the target's work directory; no way out of it. */
    private String remote(String remotePath) {
        if (remotePath.startsWith("/") || List.of(remotePath.split("/")).contains("..")) {
            throw new IllegalArgumentException("remote path must be relative to the work directory, without '..': " + remotePath);
        }
        return workDir() + "/" + remotePath;
    }

    /** The target's work directory, {@code {id}} in it replaced by the Space's id. */
    private String workDir() {
        String dir = access.target().workDir();
        return access.id() == null ? dir : dir.replace(CommandStep.ID, access.id());
    }

    private static FileRef verified(String what, FileRef expected, FileRef got) {
        if (got.size() != expected.size() || !got.sha256().equalsIgnoreCase(expected.sha256())) {
            throw new TransferException(what + ": expected " + expected.size() + " bytes with SHA-256 " + expected.sha256()
                    + ", got " + (got.size() < 0 ? "a file (its size not asked)" : got.size() + " bytes") + " with SHA-256 " + got.sha256());
        }
        return new FileRef(got.size(), got.sha256().toLowerCase());
    }
}
