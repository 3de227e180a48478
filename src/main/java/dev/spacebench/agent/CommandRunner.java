package dev.spacebench.agent;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one command for the Exec call: argv directly (no shell), waits for it, and returns exit
 * code, capped output and the agent-side duration in ns (from just before the spawn to the reap).
 *
 * <p>Two ways to spawn, chosen once per JVM at the first Exec (or Info) and logged in one line:
 * <ul>
 *   <li><b>native</b> ({@link NativeSpawn}, reported as {@value NativeSpawn#MECHANISM}): glibc's
 *       {@code posix_spawnp} and one {@code poll} over a pidfd of the child and its pipes, all in
 *       the call's own thread; no JDK process reaper, no reader thread, no wait slices. Used where
 *       JNA loads, glibc has the calls (2.34+) and the kernel has {@code pidfd_open} (5.3+; not
 *       under some gVisor versions).</li>
 *   <li><b>JDK</b> ({@code ProcessBuilder}, reported as its launch mechanism, e.g. VFORK): everywhere
 *       else, or when the agent's JVM runs with {@code -D}{@value #LAUNCH_PROPERTY}{@code =jdk}.</li>
 * </ul>
 * Both give the same reply for the same command: the same exit codes (128 + signal for a killed
 * command), output, truncation marks, timeouts and error for a program that cannot be run; with one
 * difference: when a process the command left behind still holds a pipe at the exit, the native
 * path always waits the grace below and marks the stream truncated, where the JDK path's quick
 * case returns at once, unmarked. {@code native} forced on a JVM that cannot run it fails every
 * Exec with the reason.
 *
 * <p>Pipes are made only where they carry something: empty stdin is {@code /dev/null}, and with
 * {@code discard_output} stdout/stderr go to {@code /dev/null} too. Output beyond
 * {@link #OUTPUT_CAP_BYTES} per stream is read and dropped, so the command never blocks on a full
 * pipe. Exec answers by its timeout whatever the command's children do: once the command has
 * exited, output a process it left behind still holds a pipe for is awaited for at most
 * {@link #EXIT_GRACE_MILLIS} ms more, and what came by then is returned, marked truncated. Every
 * command carries the environment entry {@code SPACEBENCH_EXEC=<agent pid>-<n>}; at the timeout
 * the command, its descendants and every process carrying its entry are killed, which also reaches
 * children that left its process group or session ({@code setsid}, double forks). Not reached: a
 * child exec'd with a cleaned environment ({@code env -i}) that also left the process tree.
 *
 * <p>On the JDK path the launch mechanism is the agent JVM's ({@code
 * -Djdk.lang.Process.launchMechanism=VFORK} on JDK 17, which nearly halves spawn time on Linux).
 * A command that exits within {@link #INLINE_WAIT_MILLIS} ms with less than a pipe's worth of
 * output costs no thread but the call's own and the JDK's process reaper: the call waits for the
 * exit in doubling slices, then takes what the pipes hold without a blocking read. A process the
 * command left behind loses the pipes then (as the JDK's own reaper does when it drains them at
 * the exit). A command that runs longer, or whose output may fill a pipe, has its output read on
 * pool threads instead (and then the truncation mark can be false although a leftover held a pipe,
 * when the JDK's reaper drained and closed it at the exit before our reader began).
 */
final class CommandRunner {

    /** Per stream; the rest is read and dropped so the child never blocks on a full pipe. */
    static final int OUTPUT_CAP_BYTES = 1 << 20;
    /** The environment entry that marks every process a command starts. */
    static final String EXEC_MARK = "SPACEBENCH_EXEC";
    /** How long output may still arrive after the command exited, for pipes something else holds. */
    static final long EXIT_GRACE_MILLIS = 200;

    /**
     * How long a command may run with its output left in the pipes before pool threads read it: a
     * longer command's two reader threads are a small part of its time.
     */
    static final long INLINE_WAIT_MILLIS = 28;
    /**
     * Bytes that fit in any Linux pipe without blocking the writer (one page: the kernel shrinks a
     * pipe to that under pipe-user-pages limits). A pipe holding this much may be blocking the
     * command, so its output is then read on pool threads at once.
     */
    static final int PIPE_SURE_BYTES = 4096;

    /** The system property that picks the spawn path: {@code auto} (default), {@code native} or {@code jdk}. */
    static final String LAUNCH_PROPERTY = "spacebench.agent.exec";

    /** Which spawn path a runner uses: AUTO takes the native one where this JVM can. */
    enum Launch { AUTO, NATIVE, JDK }

    private static final File DEV_NULL = new File("/dev/null");
    private static final System.Logger LOG = System.getLogger(CommandRunner.class.getName());

    private final WorkDir workDir;
    private final ExecutorService ioPool;
    private final ScheduledExecutorService timer;
    private final String markPrefix = ProcessHandle.current().pid() + "-";
    private final AtomicLong sequence = new AtomicLong();
    private final Launch launch;
    /** Null until the first use decides. */
    private volatile Boolean nativePath;

    /**
     * Spawns as the system property {@value #LAUNCH_PROPERTY} says (auto when unset).
     *
     * @throws IllegalArgumentException if the property has another value
     */
    CommandRunner(WorkDir workDir, ExecutorService ioPool, ScheduledExecutorService timer) {
        this(workDir, ioPool, timer, launchFromProperty());
    }

    CommandRunner(WorkDir workDir, ExecutorService ioPool, ScheduledExecutorService timer, Launch launch) {
        this.workDir = workDir;
        this.ioPool = ioPool;
        this.timer = timer;
        this.launch = launch;
    }

    private static Launch launchFromProperty() {
        return launchOf(System.getProperty(LAUNCH_PROPERTY, "auto"));
    }

    /**
     * What a runner in a JVM on this host started with these property values would report as its
     * {@link #launchMechanism()} (same kernel, libc and class path: the same automatic choice).
     *
     * @param launchValue the {@value #LAUNCH_PROPERTY} value (auto, native or jdk)
     * @param jdkMechanism that JVM's {@code jdk.lang.Process.launchMechanism}, or "JDK default"
     * @throws IllegalArgumentException for another launch value
     */
    static String launchMechanismFor(String launchValue, String jdkMechanism) {
        return switch (launchOf(launchValue)) {
            case JDK -> jdkMechanism;
            case NATIVE -> NativeSpawn.MECHANISM;
            case AUTO -> AutoChoice.NATIVE ? NativeSpawn.MECHANISM : jdkMechanism;
        };
    }

    private static Launch launchOf(String value) {
        try {
            return Launch.valueOf(value.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LAUNCH_PROPERTY + " must be auto, native or jdk, was " + ClientText.quote(value));
        }
    }

    /**
     * How this runner spawns, for {@code InfoReply.launch_mechanism}: {@value NativeSpawn#MECHANISM},
     * or the JDK's launch mechanism (the {@code jdk.lang.Process.launchMechanism} property, else
     * "JDK default"). Decides the path if no Exec has yet.
     */
    String launchMechanism() {
        return usesNative() ? NativeSpawn.MECHANISM : System.getProperty("jdk.lang.Process.launchMechanism", "JDK default");
    }

    private boolean usesNative() {
        Boolean chosen = nativePath;
        if (chosen == null) {
            chosen = switch (launch) {
                case JDK -> false;
                case AUTO -> AutoChoice.NATIVE;
                case NATIVE -> {
                    NativeSpawn.Availability availability = NativeSpawn.availability();
                    if (!availability.usable()) {
                        throw new IllegalStateException("the native spawn path is not usable here: " + availability.reason());
                    }
                    yield true;
                }
            };
            nativePath = chosen;
        }
        return chosen;
    }

    /** The automatic choice, made once per JVM at its first use and logged. */
    private static final class AutoChoice {
        static final boolean NATIVE = decide();

        private static boolean decide() {
            long start = System.nanoTime();
            String reason;
            try {
                NativeSpawn.Availability availability = NativeSpawn.availability();
                reason = availability.usable() ? null : availability.reason();
            } catch (LinkageError e) {
                reason = "JNA is not on the class path (" + e + ")";
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            if (reason == null) {
                LOG.log(System.Logger.Level.INFO, "exec spawns with " + NativeSpawn.MECHANISM + " (chosen in " + millis + " ms)");
                return true;
            }
            LOG.log(System.Logger.Level.INFO, "exec spawns with the JDK's ProcessBuilder ("
                    + System.getProperty("jdk.lang.Process.launchMechanism", "JDK default") + "): native path unusable: " + reason);
            return false;
        }
    }

    /**
     * @throws IllegalArgumentException if argv is empty or the timeout is negative
     * @throws WorkDir.PathOutsideWorkDirException if cwd leaves the work directory
     * @throws IOException if the program cannot be started (e.g. not found)
     */
    ExecReply run(ExecRequest request) throws IOException, InterruptedException {
        if (request.getArgvCount() == 0) {
            throw new IllegalArgumentException("argv must have at least one element");
        }
        if (request.getTimeoutMs() < 0) {
            throw new IllegalArgumentException("timeout_ms must be 0 (none) or positive, was " + request.getTimeoutMs());
        }
        Path cwd = request.getCwd().isEmpty() ? workDir.root() : workDir.resolveDirectory(request.getCwd());
        if (usesNative()) {
            try {
                return runNative(request, cwd, markPrefix + sequence.incrementAndGet());
            } catch (NativeSpawn.NoExecutableFormatException e) {
                // A script without "#!": the JDK's path runs it with /bin/sh, as execvp(3) would.
            }
        }
        ProcessBuilder builder = new ProcessBuilder(request.getArgvList()).directory(cwd.toFile());
        Map<String, String> environment = builder.environment();
        environment.putAll(request.getEnvMap());
        String mark = markPrefix + sequence.incrementAndGet();
        environment.put(EXEC_MARK, mark);
        boolean hasStdin = !request.getStdin().isEmpty();
        if (!hasStdin) {
            builder.redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        }
        if (request.getDiscardOutput()) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        }

        long start = System.nanoTime();
        Process process = builder.start();
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> killer = request.getTimeoutMs() > 0
                ? timer.schedule(() -> {
                    timedOut.set(true);
                    killEverything(process, mark);
                }, request.getTimeoutMs(), TimeUnit.MILLISECONDS)
                : null;
        try {
            if (!hasStdin && !request.getDiscardOutput() && exitedWithinPipes(process)) {
                long duration = System.nanoTime() - start;
                Capped out = drain(process.getInputStream());
                Capped err = drain(process.getErrorStream());
                return reply(process.exitValue(), out, err, timedOut.get(), duration);
            }
            Future<?> stdinWriter = hasStdin ? ioPool.submit(() -> writeStdin(process, request.getStdin())) : null;
            Capture stdout = request.getDiscardOutput() ? null : Capture.start(process.getInputStream(), ioPool);
            Capture stderr = request.getDiscardOutput() ? null : Capture.start(process.getErrorStream(), ioPool);
            int exit = process.waitFor();
            long duration = System.nanoTime() - start;
            long graceEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MILLIS);
            Capped out = stdout == null ? Capped.EMPTY : stdout.await(graceEnd);
            Capped err = stderr == null ? Capped.EMPTY : stderr.await(graceEnd);
            if (stdinWriter != null) {
                awaitUntil(stdinWriter, graceEnd);
            }
            return reply(exit, out, err, timedOut.get(), duration);
        } finally {
            if (killer != null) {
                killer.cancel(false);
            }
            if (process.isAlive()) {
                killEverything(process, mark);
            }
        }
    }

    private static ExecReply runNative(ExecRequest request, Path cwd, String mark) throws IOException {
        for (String arg : request.getArgvList()) {
            if (arg.indexOf('\0') >= 0) {
                throw new IOException("invalid null character in command"); // as ProcessBuilder.start
            }
        }
        List<String> env;
        if (request.getEnvMap().isEmpty()) {
            env = new ArrayList<>(AgentEnvironment.ENTRIES.size() + 1);
            env.addAll(AgentEnvironment.ENTRIES);
        } else {
            Map<String, String> environment = new HashMap<>(System.getenv());
            request.getEnvMap().forEach((name, value) -> {
                // ProcessBuilder's own checks and messages (ProcessEnvironment.validateVariable/Value).
                if (name.indexOf('=') != -1 || name.indexOf('\0') != -1) {
                    throw new IllegalArgumentException("Invalid environment variable name: \"" + name + "\"");
                }
                if (value.indexOf('\0') != -1) {
                    throw new IllegalArgumentException("Invalid environment variable value: \"" + value + "\"");
                }
                environment.put(name, value);
            });
            environment.remove(EXEC_MARK);
            env = new ArrayList<>(environment.size() + 1);
            environment.forEach((name, value) -> env.add(name + "=" + value));
        }
        env.add(EXEC_MARK + "=" + mark);
        NativeSpawn.Result result = NativeSpawn.run(request.getArgvList(), env, cwd, request.getStdin(), request.getDiscardOutput(),
                request.getTimeoutMs(), OUTPUT_CAP_BYTES, EXIT_GRACE_MILLIS, pid -> ProcessHandle.of(pid).ifPresentOrElse(
                        handle -> killEverything(handle, mark), () -> MarkedProcesses.kill(EXEC_MARK, mark)));
        return ExecReply.newBuilder()
                .setExitCode(result.exitCode())
                .setStdout(result.stdout())
                .setStderr(result.stderr())
                .setStdoutTruncated(result.stdoutTruncated())
                .setStderrTruncated(result.stderrTruncated())
                .setTimedOut(result.timedOut())
                .setAgentDurationNs(result.durationNs())
                .build();
    }

    /** The agent's own environment as {@code NAME=value} entries (without a mark it inherited): it does not change. */
    private static final class AgentEnvironment {
        static final List<String> ENTRIES = System.getenv().entrySet().stream()
                .filter(e -> !e.getKey().equals(EXEC_MARK))
                .map(e -> e.getKey() + "=" + e.getValue())
                .toList();
    }

    private static ExecReply reply(int exit, Capped out, Capped err, boolean timedOut, long duration) {
        return ExecReply.newBuilder()
                .setExitCode(exit)
                .setStdout(out.bytes())
                .setStderr(err.bytes())
                .setStdoutTruncated(out.truncated())
                .setStderrTruncated(err.truncated())
                .setTimedOut(timedOut)
                .setAgentDurationNs(duration)
                .build();
    }

    /**
     * Waits up to {@link #INLINE_WAIT_MILLIS} ms for the exit, in doubling slices (4, 8, 16 ms; each
     * slice that ends before the exit costs a wake-up, so few and not too short);
     * gives up early when a pipe holds {@link #PIPE_SURE_BYTES} or more.
     *
     * @return true if the command exited with its output still in the pipes
     */
    private static boolean exitedWithinPipes(Process process) throws IOException, InterruptedException {
        long waited = 0;
        for (long slice = 4; waited < INLINE_WAIT_MILLIS; waited += slice, slice *= 2) {
            if (process.waitFor(slice, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (process.getInputStream().available() >= PIPE_SURE_BYTES || process.getErrorStream().available() >= PIPE_SURE_BYTES) {
                return false;
            }
        }
        return false;
    }

    /**
     * What an exited command's pipe holds, read without ever blocking (only what {@code available()}
     * reports), at most {@link #OUTPUT_CAP_BYTES}; then the pipe is closed. A leftover process that
     * keeps writing cannot hold the call: reading stops at the cap.
     */
    private static Capped drain(InputStream in) throws IOException {
        try (in) {
            ByteArrayOutputStream kept = new ByteArrayOutputStream(0);
            byte[] buffer = null; // most commands measured write nothing: allocate only for output
            int available;
            while ((available = in.available()) > 0) {
                if (buffer == null) {
                    buffer = new byte[8192];
                }
                int room = OUTPUT_CAP_BYTES - kept.size();
                if (room <= 0) {
                    return new Capped(ByteString.copyFrom(kept.toByteArray()), true);
                }
                int n = in.read(buffer, 0, Math.min(buffer.length, Math.min(available, room)));
                if (n < 0) {
                    break;
                }
                kept.write(buffer, 0, n);
            }
            return kept.size() == 0 ? Capped.EMPTY : new Capped(ByteString.copyFrom(kept.toByteArray()), false);
        }
    }

    /** The command, its descendants, and whatever carries its mark after leaving the tree. */
    private static void killEverything(Process process, String mark) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly(); // also closes our ends of its pipes (the JDK's Process does)
        MarkedProcesses.kill(EXEC_MARK, mark);
    }

    /** As above for a child of the native path: its pid, not yet reaped, is still its own. */
    private static void killEverything(ProcessHandle process, String mark) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        MarkedProcesses.kill(EXEC_MARK, mark);
    }

    private static Void writeStdin(Process process, ByteString stdin) throws IOException {
        try (OutputStream out = process.getOutputStream()) {
            stdin.writeTo(out);
        } catch (IOException e) {
            // The child may exit without reading its input; that is its business, not an error.
        }
        return null;
    }

    /** Waits for a stdin writer until {@code deadline}; one still blocked is left to end with the pipe. */
    private static void awaitUntil(Future<?> future, long deadline) throws InterruptedException {
        try {
            future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // writeStdin swallows its own errors; a timeout means a leftover holds stdin unread
        }
    }

    private record Capped(ByteString bytes, boolean truncated) {
        static final Capped EMPTY = new Capped(ByteString.EMPTY, false);
    }

    /**
     * One output pipe read to its end on a pool thread, keeping the first
     * {@link #OUTPUT_CAP_BYTES}. The caller may stop waiting at any time and take what came so far.
     */
    private static final class Capture {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private boolean dropped;
        private Future<?> reader;

        static Capture start(InputStream in, ExecutorService pool) {
            Capture capture = new Capture();
            capture.reader = pool.submit(() -> capture.drain(in));
            return capture;
        }

        private Void drain(InputStream in) throws IOException {
            try (in) {
                byte[] buffer = new byte[8192];
                int n;
                while ((n = in.read(buffer)) != -1) {
                    synchronized (this) {
                        int room = OUTPUT_CAP_BYTES - kept.size();
                        if (room > 0) {
                            kept.write(buffer, 0, Math.min(room, n));
                        }
                        if (n > room) {
                            dropped = true;
                        }
                    }
                }
            } catch (IOException e) {
                // Our own kill (a timeout) closes our end of the pipe, here or before the first read on a
                // loaded host ("Stream closed"): the output ends there, marked as cut, and the command's
                // reply stays a timed-out exit, not a spawn error.
                synchronized (this) {
                    dropped = true;
                }
            }
            return null;
        }

        /** What was read by {@code deadline}; truncated when cut at the cap or when the pipe was still open then. */
        Capped await(long deadline) throws IOException, InterruptedException {
            boolean ended;
            try {
                reader.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                ended = true;
            } catch (TimeoutException e) {
                ended = false;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
            synchronized (this) {
                return new Capped(ByteString.copyFrom(kept.toByteArray()), dropped || !ended);
            }
        }
    }
}
