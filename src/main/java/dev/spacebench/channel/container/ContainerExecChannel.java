package dev.spacebench.channel.container;

import dev.spacebench.agent.MarkedProcesses;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FarDigest;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.files.Sha256;
import dev.spacebench.space.ContainerExecAccess;
import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.ProcessTrees;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A container Space reached the way users of docker-style sandboxes reach it: one run of the
 * engine's own tool per call, as they would type it.
 *
 * <ul>
 *   <li>exec: {@code podman exec -e SPACEBENCH_EXEC=<id> CONTAINER ARGV…} (no shell: podman passes the
 *       argv on), started through {@code setsid}, so that it leads a process group of its own. The
 *       timed region holds the whole tool: its start, its call to the engine, the runtime's exec and
 *       the command. {@code setsid} adds one exec (≈3 ms on our 2-core VM) to it.</li>
 *   <li>files: {@code podman cp} into (or out of) the Space's work directory, then the far side's
 *       {@code sha256sum} and {@code stat} through one more exec ({@link FarDigest}), inside the
 *       timed region as the agent's digest is; a download is also hashed as received.</li>
 *   <li>no-op: none ({@link #unsupported}): every call starts a process in the container.</li>
 * </ul>
 *
 * <p>A call that outlives its timeout has its tool's process group SIGKILLed (and any descendant
 * left), and then what it started in the container, found by the call's own {@code SPACEBENCH_EXEC}
 * mark: on the host for runc (the container's processes are the host kernel's), and by an exec in
 * the container for every runtime (gVisor's are not in the host's /proc). Killing {@code podman exec}
 * alone would leave the command running in the container.
 */
public final class ContainerExecChannel implements Channel {

    /** This channel's id in requests, samples and pages. */
    public static final String ID = "container-exec";
    /** The environment entry each exec carries, naming the call: how a timed-out call's processes are found. */
    public static final String EXEC_MARK = "SPACEBENCH_EXEC";
    /** The most output kept of each stream, as the agent keeps (the rest is read and dropped). */
    private static final int OUTPUT_CAP = 1 << 20;
    private static final Duration CLEANUP_TIMEOUT = Duration.ofSeconds(30);
    private static final String NO_NOOP = "container exec has no round trip that runs nothing: each call starts a process in the container";

    private final ContainerExecAccess access;
    private final Path setsid;
    private final String prefix = Long.toString(ProcessHandle.current().pid(), 36) + "-" + Long.toString(System.nanoTime(), 36);
    private final AtomicLong calls = new AtomicLong();
    private final Set<String> madeDirs = ConcurrentHashMap.newKeySet();
    /** Drains the tool's output while it runs; threads are made once and kept for the loops. */
    private final ExecutorService readers = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "container-exec-output");
        thread.setDaemon(true);
        return thread;
    });

    private ContainerExecChannel(ContainerExecAccess access, Path setsid) {
        this.access = access;
        this.setsid = setsid;
    }

    /**
     * @throws ContainerExecException when the engine's tool or {@code setsid} (Debian package util-linux) is missing
     */
    public static ContainerExecChannel open(ContainerExecAccess access) {
        if (!Files.isExecutable(access.cli())) {
            throw new ContainerExecException("the container engine's tool " + access.cli() + " is missing", null);
        }
        Path setsid = Executables.onPath("setsid").orElseThrow(() -> new ContainerExecException(
                "setsid is not on PATH (Debian package util-linux): container exec needs it to kill a call's process group at its timeout", null));
        return new ContainerExecChannel(access, setsid);
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Optional<String> unsupported(Operation operation) {
        return operation == Operation.NOOP ? Optional.of(NO_NOOP) : Optional.empty();
    }

    @Override
    public void noop(Duration timeout) {
        throw new UnsupportedOperationException(NO_NOOP);
    }

    @Override
    public ExecResult exec(List<String> argv, Duration timeout) {
        String mark = prefix + "-" + calls.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("exec", "-e", EXEC_MARK + "=" + mark, access.container()));
        args.addAll(argv);
        Outcome outcome = run(args, timeout, mark);
        return new ExecResult(outcome.exitCode, 0, outcome.stdout, outcome.stderr, outcome.timedOut);
    }

    @Override
    public FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) throws IOException {
        String path = FarDigest.inside(access.workDir(), remotePath);
        makeParents(remotePath, timeout);
        checked("cp of " + remotePath + " into the container", run(List.of("cp", source.toString(), access.container() + ":" + path),
                timeout, null));
        return FarDigest.verified("upload of " + remotePath + " (the far side's sha256sum)", expected, farDigest(path, remotePath, timeout));
    }

    @Override
    public FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) throws IOException {
        String path = FarDigest.inside(access.workDir(), remotePath);
        if (Files.exists(destination, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(destination + " exists already");
        }
        checked("cp of " + remotePath + " out of the container", run(List.of("cp", access.container() + ":" + path, destination.toString()),
                timeout, null));
        FarDigest.verified("download of " + remotePath + " (the far side's sha256sum)", expected, farDigest(path, remotePath, timeout));
        Sha256.Result received = Sha256.of(destination);
        return FarDigest.verified("download of " + remotePath + " (as received)", expected, new FileRef(received.size(), received.sha256()));
    }

    @Override
    public boolean delete(String remotePath, Duration timeout) {
        String path = FarDigest.inside(access.workDir(), remotePath);
        ExecResult result = exec(List.of("sh", "-c", "test -e \"$1\" || exit 3; rm -f -- \"$1\"", "sh", path), timeout);
        if (result.exitCode() == 0 || result.exitCode() == 3) {
            return result.exitCode() == 0;
        }
        throw new ContainerExecException("rm of " + remotePath + " in the container failed (" + describe(result.exitCode(), result.timedOut())
                + "): " + text(result.stderr()), null);
    }

    @Override
    public void close() {
        readers.shutdownNow();
    }

    private FileRef farDigest(String path, String remotePath, Duration timeout) {
        return FarDigest.parse(exec(FarDigest.argv(path), timeout), remotePath, why -> new ContainerExecException(why, null));
    }

    /** Makes the work directory's sub-directories of {@code remotePath} once per channel ({@code podman cp} makes no parents). */
    private void makeParents(String remotePath, Duration timeout) {
        int slash = remotePath.lastIndexOf('/');
        if (slash <= 0 || madeDirs.contains(remotePath.substring(0, slash))) {
            return;
        }
        String parent = remotePath.substring(0, slash);
        ExecResult made = exec(List.of("mkdir", "-p", "--", FarDigest.inside(access.workDir(), parent)), timeout);
        if (made.exitCode() != 0 || made.timedOut()) {
            throw new ContainerExecException("mkdir of " + parent + " in the container failed (" + describe(made.exitCode(), made.timedOut())
                    + "): " + text(made.stderr()), null);
        }
        madeDirs.add(parent);
    }

    private static void checked(String what, Outcome outcome) {
        if (outcome.exitCode != 0 || outcome.timedOut) {
            throw new ContainerExecException(what + " failed (" + describe(outcome.exitCode, outcome.timedOut) + "): "
                    + text(outcome.stderr), null);
        }
    }

    /**
     * Runs {@code setsid CLI args…}, output drained on the channel's reader threads, and waits at
     * most {@code timeout}; past it, kills the tool's process group and what it left.
     *
     * @param mark the exec's mark, to find what it started in the container; null for a {@code cp}
     */
    private Outcome run(List<String> args, Duration timeout, String mark) {
        List<String> command = new ArrayList<>(List.of(setsid.toString(), "--wait", access.cli().toString()));
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new ContainerExecException("could not run " + access.cli() + ": " + e.getMessage(), e);
        }
        Future<byte[]> out = readers.submit(() -> capped(process.getInputStream()));
        Future<byte[]> err = readers.submit(() -> capped(process.getErrorStream()));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killGroup(process);
                if (mark != null) {
                    killMarked(mark);
                }
                return new Outcome(-1, output(out), output(err), true);
            }
            return new Outcome(process.exitValue(), output(out), output(err), false);
        } catch (InterruptedException e) {
            killGroup(process);
            Thread.currentThread().interrupt();
            throw new ContainerExecException("interrupted while " + access.cli().getFileName() + " " + args.get(0) + " ran", e);
        }
    }

    /** SIGKILL to the tool's process group (it leads it, through setsid), then to any descendant that left it. */
    private static void killGroup(Process process) {
        try {
            Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(CLEANUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            // the tree is killed below all the same
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ProcessTrees.kill(process.toHandle());
    }

    /**
     * What a timed-out exec started in the container: on the host where the runtime's processes are
     * the host kernel's (runc), and by an exec in the container that SIGKILLs every process whose
     * environment holds the mark (any runtime; it carries no mark itself).
     */
    private void killMarked(String mark) {
        MarkedProcesses.kill(EXEC_MARK, mark);
        run(List.of("exec", access.container(), "sh", "-c",
                "for e in /proc/[0-9]*/environ; do if grep -qzx -e \"$1\" \"$e\" 2>/dev/null; then p=${e#/proc/}; kill -9 \"${p%/environ}\"; fi; done",
                "sh", EXEC_MARK + "=" + mark), CLEANUP_TIMEOUT, null);
    }

    private static byte[] capped(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) != -1; ) {
            int room = OUTPUT_CAP - kept.size();
            if (room > 0) {
                kept.write(buffer, 0, Math.min(n, room));
            }
        }
        return kept.toByteArray();
    }

    private static byte[] output(Future<byte[]> read) {
        try {
            return read.get(CLEANUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new byte[0];
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            read.cancel(true);
            return new byte[0];
        }
    }

    private static String describe(int exitCode, boolean timedOut) {
        return timedOut ? "timed out" : "exit code " + exitCode;
    }

    private static String text(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "(no output)" : text.length() > 500 ? text.substring(0, 500) + "…" : text;
    }

    private record Outcome(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut) {
    }
}
