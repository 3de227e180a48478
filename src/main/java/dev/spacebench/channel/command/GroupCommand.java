package dev.spacebench.channel.command;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one operator-defined command (an argv, never a shell line) in a process group and session
 * of its own ({@code setsid}, from util-linux), so that at its timeout the whole group is killed:
 * the command and everything it started that stayed in its session, also what its own children
 * started after they were re-parented. Stdin is {@code /dev/null}; stdout and stderr are captured,
 * {@link #OUTPUT_CAP_BYTES} each at most (the rest is read and dropped so that the command never
 * blocks on a full pipe).
 *
 * <p>Not reached: a process that left the session itself ({@code setsid} again, a daemon), as a
 * container engine's monitor does; the target's {@code delete} command is the way to remove those.
 */
public final class GroupCommand {

    /** Bytes kept per stream. */
    public static final int OUTPUT_CAP_BYTES = 1 << 20;
    /** How long output may still arrive after the command exited, for pipes a process it left holds. */
    private static final long EXIT_GRACE_MILLIS = 2_000;
    /** How long the killed group may take to be gone. */
    private static final long KILL_WAIT_MILLIS = 5_000;
    private static final String SETSID = "/usr/bin/setsid";

    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "group-command-output");
        thread.setDaemon(true);
        return thread;
    });

    private GroupCommand() {}

    /**
     * What a command did.
     *
     * @param exitCode its exit code; 128 + the signal when it was killed; -1 when it timed out
     * @param stdout its standard output (at most {@link #OUTPUT_CAP_BYTES})
     * @param stderr its standard error (likewise)
     * @param timedOut true when it was still running at its timeout and its group was killed
     */
    public record Result(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut) {

        /** Standard error's first 300 characters, stripped, for a reason in words. */
        public String stderrHead() {
            return GroupCommand.stderrHead(stderr);
        }
    }

    /** {@code "; stderr: …"} with its first 300 characters, stripped; empty when there is none. */
    public static String stderrHead(byte[] stderr) {
        String text = new String(stderr, 0, Math.min(stderr.length, 300), java.nio.charset.StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "" : "; stderr: " + text;
    }

    /** Whether commands can be run this way here: {@code setsid} (Debian's util-linux) is installed. */
    public static boolean available() {
        return Files.isExecutable(Path.of(SETSID));
    }

    /**
     * Runs {@code argv} and waits for it, at most {@code timeout}; at the timeout its session is
     * SIGKILLed and waited for.
     *
     * @throws UncheckedIOException when the command cannot be started (no such program), naming it
     */
    public static Result run(List<String> argv, Duration timeout) {
        List<String> command = new ArrayList<>(argv.size() + 1);
        command.add(SETSID);
        command.addAll(argv);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + argv.get(0) + ": " + e.getMessage(), e);
        }
        // setsid(1) does not fork when its caller is no group leader (a JVM's child is not): the command's pid is its session's id.
        long session = process.pid();
        Future<byte[]> out = READERS.submit(() -> drain(process.getInputStream()));
        Future<byte[]> err = READERS.submit(() -> drain(process.getErrorStream()));
        boolean exited;
        try {
            exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            killSession(session, process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + argv.get(0) + " ran; its process group was killed", e);
        }
        if (!exited) {
            killSession(session, process);
            byte[] stdout = take(out, 0);
            byte[] stderr = take(err, 0);
            return new Result(-1, stdout == null ? new byte[0] : stdout, stderr == null ? new byte[0] : stderr, true);
        }
        int code = process.exitValue();
        byte[] stdout = take(out, EXIT_GRACE_MILLIS);
        byte[] stderr = take(err, EXIT_GRACE_MILLIS);
        if (stdout == null || stderr == null) {
            // Something it left behind still holds a pipe: that is what the group kill is for.
            killSession(session, process);
            stdout = stdout == null ? take(out, EXIT_GRACE_MILLIS) : stdout;
            stderr = stderr == null ? take(err, EXIT_GRACE_MILLIS) : stderr;
        }
        return new Result(code, stdout == null ? new byte[0] : stdout, stderr == null ? new byte[0] : stderr, false);
    }

    private static byte[] drain(InputStream in) throws IOException {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (in) {
            for (int n; (n = in.read(buffer)) != -1; ) {
                int room = OUTPUT_CAP_BYTES - kept.size();
                if (room > 0) {
                    kept.write(buffer, 0, Math.min(n, room));
                }
            }
        }
        return kept.toByteArray();
    }

    /** The reader's bytes, waiting up to {@code millis}; null when it has not finished by then. */
    private static byte[] take(Future<byte[]> reader, long millis) {
        try {
            return reader.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (millis == 0) {
                // After the group's kill every pipe end is closed: what was read is coming.
                return take(reader, EXIT_GRACE_MILLIS);
            }
            return null;
        } catch (ExecutionException e) {
            return new byte[0];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new byte[0];
        }
    }

    /**
     * SIGKILLs every process of session {@code session} (the command's own, made by setsid), again
     * until none is left (one may fork while the first kills land), then waits for the command.
     */
    static void killSession(long session, Process process) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MILLIS);
        process.destroyForcibly();
        List<Long> left;
        while (!(left = inSession(session)).isEmpty() && System.nanoTime() < deadline) {
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            process.waitFor(KILL_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The live (not zombie) processes whose session or process group is {@code id}, from
     * {@code /proc/PID/stat} ("pid (comm) state ppid pgrp session …").
     */
    public static List<Long> inSession(long id) {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                String stat;
                try {
                    stat = Files.readString(proc.resolve("stat"));
                } catch (IOException | RuntimeException gone) {
                    continue;
                }
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (fields.length > 3 && !fields[0].equals("Z")
                        && (Long.parseLong(fields[2]) == id || Long.parseLong(fields[3]) == id)) {
                    found.add(Long.parseLong(proc.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not list /proc", e);
        }
        return found;
    }
}
