package dev.spacebench.agent;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one command for the Exec call: argv directly (no shell), waits for it, and returns exit
 * code, capped output and the agent-side duration in ns.
 *
 * <p>Pipes are made only where they carry something: empty stdin is {@code /dev/null}, and with
 * {@code discard_output} stdout/stderr go to {@code /dev/null} too. The JVM's launch mechanism
 * is chosen by whoever starts the agent ({@code -Djdk.lang.Process.launchMechanism=VFORK} on
 * JDK 17, which nearly halves spawn time on Linux).
 */
final class CommandRunner {

    /** Per stream; the rest is read and dropped so the child never blocks on a full pipe. */
    static final int OUTPUT_CAP_BYTES = 1 << 20;

    private static final File DEV_NULL = new File("/dev/null");

    private final WorkDir workDir;
    private final ExecutorService ioPool;
    private final ScheduledExecutorService timer;

    CommandRunner(WorkDir workDir, ExecutorService ioPool, ScheduledExecutorService timer) {
        this.workDir = workDir;
        this.ioPool = ioPool;
        this.timer = timer;
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
        ProcessBuilder builder = new ProcessBuilder(request.getArgvList()).directory(cwd.toFile());
        if (!request.getEnvMap().isEmpty()) {
            builder.environment().putAll(request.getEnvMap());
        }
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
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }, request.getTimeoutMs(), TimeUnit.MILLISECONDS)
                : null;
        try {
            Future<?> stdinWriter = hasStdin ? ioPool.submit(() -> writeStdin(process, request.getStdin())) : null;
            Capped stdout = Capped.EMPTY;
            Capped stderr = Capped.EMPTY;
            if (!request.getDiscardOutput()) {
                Future<Capped> stderrReader = ioPool.submit(() -> Capped.read(process.getErrorStream()));
                stdout = Capped.read(process.getInputStream());
                stderr = get(stderrReader);
            }
            int exit = process.waitFor();
            long duration = System.nanoTime() - start;
            if (stdinWriter != null) {
                get(stdinWriter);
            }
            return ExecReply.newBuilder()
                    .setExitCode(exit)
                    .setStdout(stdout.bytes())
                    .setStderr(stderr.bytes())
                    .setStdoutTruncated(stdout.truncated())
                    .setStderrTruncated(stderr.truncated())
                    .setTimedOut(timedOut.get())
                    .setAgentDurationNs(duration)
                    .build();
        } finally {
            if (killer != null) {
                killer.cancel(false);
            }
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    private static Void writeStdin(Process process, ByteString stdin) throws IOException {
        try (OutputStream out = process.getOutputStream()) {
            stdin.writeTo(out);
        } catch (IOException e) {
            // The child may exit without reading its input; that is its business, not an error.
        }
        return null;
    }

    private static <T> T get(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    private record Capped(ByteString bytes, boolean truncated) {
        static final Capped EMPTY = new Capped(ByteString.EMPTY, false);

        static Capped read(InputStream in) throws IOException {
            try (in) {
                ByteArrayOutputStream kept = new ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                boolean truncated = false;
                int n;
                while ((n = in.read(buffer)) != -1) {
                    int room = OUTPUT_CAP_BYTES - kept.size();
                    if (room > 0) {
                        kept.write(buffer, 0, Math.min(room, n));
                    }
                    if (n > room) {
                        truncated = true;
                    }
                }
                return new Capped(ByteString.copyFrom(kept.toByteArray()), truncated);
            }
        }
    }

}
