package dev.spacebench.agent;

import com.google.protobuf.ByteString;
import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Runs one command in the calling thread alone: glibc's {@code posix_spawnp} (a
 * {@code clone(CLONE_VM|CLONE_VFORK)}, as hyperfine spawns), then one {@code poll} over a pidfd of
 * the child and its pipes until the exit, the timeout, or the pipes' end. The JDK's
 * {@code ProcessBuilder} needs its process reaper thread for every exit and, for output, wait
 * slices or reader threads: measured with {@code spacebench.jar floor cost}, 11 context switches
 * per {@code true} through the agent against 5.8 for a bare loop.
 *
 * <p>The child gets: stdin from /dev/null, or a pipe the call writes as the child takes it; stdout
 * and stderr through pipes (or /dev/null when output is discarded); the working directory; an
 * empty signal mask whatever the calling thread blocks (the JVM's threads block SIGQUIT); and no file descriptor of the agent
 * but those three ({@code posix_spawn_file_actions_addclosefrom_np(3)}, glibc 2.34+). Linux 5.3+
 * for {@code pidfd_open}; on x86_64 and aarch64 only.
 */
final class NativeSpawn {

    /** How the agent reports this path in {@code InfoReply.launch_mechanism}. */
    static final String MECHANISM = "posix_spawn+pidfd (native)";

    private static final int BUFFER_BYTES = 64 * 1024;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private NativeSpawn() {}

    /**
     * Whether this JVM can use the native path, decided at the first call (it loads JNA, which may
     * unpack its library into a temp directory) and kept.
     */
    static Availability availability() {
        return Probe.RESULT;
    }

    /** @param reason why not, in a few words; empty when usable */
    record Availability(boolean usable, String reason) {}

    /**
     * @param exitCode as Java's Process reports it: the status, or 128 + the signal that ended it
     * @param durationNs from just before the spawn to the reap
     */
    record Result(int exitCode, ByteString stdout, boolean stdoutTruncated, ByteString stderr, boolean stderrTruncated,
            boolean timedOut, long durationNs) {}

    /**
     * Spawns {@code argv} (the program looked up in this process's PATH, as the JDK does) and waits
     * for it as {@link CommandRunner} describes: output kept up to {@code outputCap} bytes per stream
     * (the rest read and dropped), and after the exit at most {@code graceMillis} ms more for pipes a
     * leftover process still holds (then marked truncated).
     *
     * @param env entries {@code NAME=value}, the child's whole environment
     * @param timeoutMillis 0 for none; at the timeout {@code killAll} gets the child's pid (not yet
     *     reaped, so the pid is still the child's) and the wait goes on for its exit
     * @throws IOException if the program cannot be started, with the JDK's message shape ({@code
     *     Cannot run program "x" (in directory "d"): error=2, No such file or directory}, that text
     *     from {@code error=} as the cause's message)
     */
    /** errno for a file the kernel cannot execute (no ELF header, no {@code #!} line). */
    static final int ENOEXEC = 8;

    /**
     * The program is not a binary and has no {@code #!} line. The JDK's launcher then runs it with
     * {@code /bin/sh} (as execvp(3) does); glibc's posix_spawnp does not, so the caller does.
     */
    static final class NoExecutableFormatException extends IOException {
        NoExecutableFormatException(String cause) {
            super(cause);
        }
    }

    static Result run(List<String> argv, List<String> env, Path cwd, ByteString stdin, boolean discardOutput, long timeoutMillis,
            int outputCap, long graceMillis, LongConsumer killAll) throws IOException {
        Scratch scratch = SCRATCH.get();
        Strings strings = scratch.strings(argv, env, cwd.toString());
        Memory stdinBytes = null;
        if (!stdin.isEmpty()) {
            stdinBytes = new Memory(stdin.size());
            stdinBytes.write(0, stdin.toByteArray(), 0, stdin.size());
        }
        Fds fds = new Fds();
        int pid = 0;
        boolean reaped = false;
        try {
            Memory actions = scratch.actions;
            LibC.posix_spawn_file_actions_init(actions);
            try {
                if (stdinBytes != null) {
                    fds.stdin = pipe(fds, 0);
                    LibC.fcntl(fds.stdin, LibC.F_SETFL, LibC.fcntl(fds.stdin, LibC.F_GETFL, 0) | LibC.O_NONBLOCK);
                    check(LibC.posix_spawn_file_actions_adddup2(actions, fds.childStdin, 0), "adddup2");
                } else {
                    check(LibC.posix_spawn_file_actions_addopen(actions, 0, scratch.devNull, LibC.O_RDONLY, 0), "addopen");
                }
                if (discardOutput) {
                    check(LibC.posix_spawn_file_actions_addopen(actions, 1, scratch.devNull, LibC.O_WRONLY, 0), "addopen");
                    check(LibC.posix_spawn_file_actions_addopen(actions, 2, scratch.devNull, LibC.O_WRONLY, 0), "addopen");
                } else {
                    fds.stdout = pipe(fds, 1);
                    fds.stderr = pipe(fds, 2);
                    check(LibC.posix_spawn_file_actions_adddup2(actions, fds.childStdout, 1), "adddup2");
                    check(LibC.posix_spawn_file_actions_adddup2(actions, fds.childStderr, 2), "adddup2");
                }
                check(LibC.posix_spawn_file_actions_addchdir_np(actions, strings.dir), "addchdir_np");
                check(LibC.posix_spawn_file_actions_addclosefrom_np(actions, 3), "addclosefrom_np");

                long start = System.nanoTime();
                int error = LibC.posix_spawnp(scratch.pid, strings.file, actions, scratch.attr, strings.argv, strings.envp);
                fds.closeChildEnds();
                if (error != 0) {
                    String cause = "error=" + error + ", " + LibC.strerror(error);
                    if (error == ENOEXEC) {
                        throw new NoExecutableFormatException(cause);
                    }
                    throw new IOException("Cannot run program \"" + argv.get(0) + "\" (in directory \"" + cwd + "\"): " + cause,
                            new IOException(cause));
                }
                pid = scratch.pid[0];
                fds.pidfd = (int) LibC.syscall(LibC.SYS_PIDFD_OPEN, pid, 0);
                Waited waited = await(scratch, fds, pid, start, stdinBytes, stdin.size(), timeoutMillis, outputCap, graceMillis, killAll);
                reaped = true;
                fds.out.open = fds.stdout >= 0;
                fds.err.open = fds.stderr >= 0;
                return new Result(waited.exitCode, fds.out.bytes(), fds.out.truncated(), fds.err.bytes(), fds.err.truncated(),
                        waited.timedOut, waited.durationNs);
            } finally {
                LibC.posix_spawn_file_actions_destroy(actions);
            }
        } catch (LastErrorException e) {
            throw new IOException("exec: " + e.getMessage(), e);
        } finally {
            if (pid > 0 && !reaped) {
                killAll.accept(pid);
                waitFor(pid, scratch.status);
            }
            fds.closeAll();
        }
    }

    private record Waited(int exitCode, boolean timedOut, long durationNs) {}

    /** The poll loop: the exit, output as it comes, stdin as the pipe takes it, the timeout, the grace. */
    private static Waited await(Scratch scratch, Fds fds, int pid, long start, Memory stdinBytes, long stdinSize, long timeoutMillis,
            int outputCap, long graceMillis, LongConsumer killAll) {
        long deadline = timeoutMillis > 0 ? start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : Long.MAX_VALUE;
        long stdinWritten = 0;
        boolean timedOut = false;
        boolean exited = false;
        int exitCode = -1;
        long durationNs = 0;
        long graceEnd = 0;
        int[] slots = new int[4];
        Memory pollfds = scratch.pollfds;
        while (true) {
            if (exited && fds.stdout < 0 && fds.stderr < 0 && fds.stdin < 0) {
                break;
            }
            long now = System.nanoTime();
            int waitMillis;
            if (!exited) {
                if (timedOut || deadline == Long.MAX_VALUE) {
                    waitMillis = -1;
                } else if (now >= deadline) {
                    timedOut = true;
                    killAll.accept(pid);
                    continue;
                } else {
                    waitMillis = ceilMillis(deadline - now);
                }
            } else if (now >= graceEnd) {
                break;
            } else {
                waitMillis = ceilMillis(graceEnd - now);
            }
            int count = 0;
            count = slot(pollfds, slots, count, fds.pidfd, LibC.POLLIN);
            count = slot(pollfds, slots, count, fds.stdout, LibC.POLLIN);
            count = slot(pollfds, slots, count, fds.stderr, LibC.POLLIN);
            count = slot(pollfds, slots, count, fds.stdin, LibC.POLLOUT);
            int ready;
            try {
                ready = LibC.poll(pollfds, count, waitMillis);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == LibC.EINTR) {
                    continue;
                }
                throw e;
            }
            if (ready <= 0) {
                continue;
            }
            for (int i = 0; i < count; i++) {
                short revents = pollfds.getShort((long) i * LibC.POLLFD_BYTES + 6);
                if (revents == 0) {
                    continue;
                }
                int fd = slots[i];
                if (fd == fds.pidfd) {
                    exitCode = waitFor(pid, scratch.status);
                    exited = true;
                    durationNs = System.nanoTime() - start;
                    graceEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
                    LibC.close(fds.pidfd);
                    fds.pidfd = -1;
                } else if (fd == fds.stdout) {
                    if (!readSome(fds.stdout, scratch.buffer, fds.out, outputCap)) {
                        LibC.close(fds.stdout);
                        fds.stdout = -1;
                    }
                } else if (fd == fds.stderr) {
                    if (!readSome(fds.stderr, scratch.buffer, fds.err, outputCap)) {
                        LibC.close(fds.stderr);
                        fds.stderr = -1;
                    }
                } else if (fd == fds.stdin) {
                    long written = (revents & LibC.POLLOUT) != 0 ? writeSome(fds.stdin, stdinBytes, stdinWritten, stdinSize) : -1;
                    if (written < 0 || (stdinWritten += written) >= stdinSize) {
                        LibC.close(fds.stdin);
                        fds.stdin = -1;
                    }
                }
            }
        }
        return new Waited(exitCode, timedOut, durationNs);
    }

    private static int slot(Memory pollfds, int[] slots, int count, int fd, short events) {
        if (fd < 0) {
            return count;
        }
        long at = (long) count * LibC.POLLFD_BYTES;
        pollfds.setInt(at, fd);
        pollfds.setShort(at + 4, events);
        pollfds.setShort(at + 6, (short) 0);
        slots[count] = fd;
        return count + 1;
    }

    /** @return false at the pipe's end (or an error, which ends it too) */
    private static boolean readSome(int fd, Memory buffer, Sink sink, int cap) {
        long n;
        try {
            n = LibC.read(fd, buffer, BUFFER_BYTES);
        } catch (LastErrorException e) {
            return e.getErrorCode() == LibC.EINTR || e.getErrorCode() == LibC.EAGAIN;
        }
        if (n <= 0) {
            return false;
        }
        sink.take(buffer, (int) n, cap);
        return true;
    }

    /** @return bytes written (0 when the pipe was full after all), or -1 once the reader is gone */
    private static long writeSome(int fd, Memory bytes, long from, long size) {
        try {
            return LibC.write(fd, bytes.share(from), Math.min(size - from, BUFFER_BYTES));
        } catch (LastErrorException e) {
            return e.getErrorCode() == LibC.EINTR || e.getErrorCode() == LibC.EAGAIN ? 0 : -1;
        }
    }

    /**
     * Reaps {@code pid}; the exit code as Java's Process gives it (128 + signal when killed), or -1
     * if it cannot be had (ECHILD: something else reaped it).
     */
    private static int waitFor(int pid, int[] status) {
        while (true) {
            try {
                LibC.waitpid(pid, status, 0);
                int signal = status[0] & 0x7f;
                return signal == 0 ? (status[0] >> 8) & 0xff : 0x80 + signal;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LibC.EINTR) {
                    return -1;
                }
            }
        }
    }

    private static int ceilMillis(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
    }

    private static int pipe(Fds fds, int target) {
        int[] ends = new int[2];
        LibC.pipe2(ends, LibC.O_CLOEXEC);
        // ends[0] reads, ends[1] writes; the child gets the read end for stdin, the write end otherwise.
        switch (target) {
            case 0 -> fds.childStdin = ends[0];
            case 1 -> fds.childStdout = ends[1];
            default -> fds.childStderr = ends[1];
        }
        return target == 0 ? ends[1] : ends[0];
    }

    private static void check(int error, String call) throws IOException {
        if (error != 0) {
            throw new IOException("posix_spawn_file_actions_" + call + ": error=" + error + ", " + LibC.strerror(error));
        }
    }

    private static Memory cString(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Memory memory = new Memory(bytes.length + 1);
        memory.write(0, bytes, 0, bytes.length);
        memory.setByte(bytes.length, (byte) 0);
        return memory;
    }

    /** One stream's output: the first {@code cap} bytes kept, whether more came. */
    private static final class Sink {
        private ByteArrayOutputStream kept;
        private boolean dropped;
        /** Still open when the wait ended: a leftover held it past the grace. */
        private boolean open;

        void take(Pointer buffer, int n, int cap) {
            if (kept == null) {
                kept = new ByteArrayOutputStream(Math.min(n, cap));
            }
            int room = cap - kept.size();
            if (room > 0) {
                kept.write(buffer.getByteArray(0, Math.min(room, n)), 0, Math.min(room, n));
            }
            if (n > room) {
                dropped = true;
            }
        }

        ByteString bytes() {
            return kept == null || kept.size() == 0 ? ByteString.EMPTY : ByteString.copyFrom(kept.toByteArray());
        }

        boolean truncated() {
            return dropped || open;
        }
    }

    /** The call's file descriptors; -1 once closed. */
    private static final class Fds {
        int stdin = -1;
        int stdout = -1;
        int stderr = -1;
        int childStdin = -1;
        int childStdout = -1;
        int childStderr = -1;
        int pidfd = -1;
        final Sink out = new Sink();
        final Sink err = new Sink();

        void closeChildEnds() {
            childStdin = closed(childStdin);
            childStdout = closed(childStdout);
            childStderr = closed(childStderr);
        }

        void closeAll() {
            closeChildEnds();
            stdin = closed(stdin);
            stdout = closed(stdout);
            stderr = closed(stderr);
            pidfd = closed(pidfd);
        }

        private static int closed(int fd) {
            if (fd >= 0) {
                LibC.close(fd);
            }
            return -1;
        }
    }

    /** Pointers into a thread's block: the program's name, argv, envp (both NULL-ended), the working directory. */
    private record Strings(Pointer file, Pointer argv, Pointer envp, Pointer dir) {}

    /** Per-thread native memory: reused, as an Exec's own allocations are part of what it costs. */
    private static final class Scratch {
        final Memory actions = new Memory(LibC.FILE_ACTIONS_BYTES);
        final Memory attr = new Memory(LibC.SPAWN_ATTR_BYTES);
        final Memory sigset = new Memory(LibC.SIGSET_BYTES);
        final Memory pollfds = new Memory(4L * LibC.POLLFD_BYTES);
        final Memory buffer = new Memory(BUFFER_BYTES);
        final Memory devNull = cString("/dev/null");
        final int[] pid = new int[1];
        final int[] status = new int[1];
        /** argv, envp and their strings, in one block that grows as needed. */
        private Memory block = new Memory(16 * 1024);

        /** The spawn's C strings and arrays, written into the thread's block: no native allocation per Exec. */
        Strings strings(List<String> argv, List<String> env, String dir) {
            byte[][] args = encode(argv);
            byte[][] entries = encode(env);
            byte[] dirBytes = dir.getBytes(StandardCharsets.UTF_8);
            long pointers = (args.length + 1L + entries.length + 1L) * Native.POINTER_SIZE;
            long size = pointers + dirBytes.length + 1;
            for (byte[] bytes : args) {
                size += bytes.length + 1;
            }
            for (byte[] bytes : entries) {
                size += bytes.length + 1;
            }
            if (block.size() < size) {
                block = new Memory(Math.max(size, block.size() * 2));
            }
            long at = pointers;
            Pointer dirPointer = block.share(at);
            at = put(block, at, dirBytes);
            Pointer argvPointer = block.share(0);
            long slot = 0;
            for (byte[] bytes : args) {
                block.setPointer(slot, block.share(at));
                slot += Native.POINTER_SIZE;
                at = put(block, at, bytes);
            }
            block.setPointer(slot, null);
            slot += Native.POINTER_SIZE;
            Pointer envPointer = block.share(slot);
            for (byte[] bytes : entries) {
                block.setPointer(slot, block.share(at));
                slot += Native.POINTER_SIZE;
                at = put(block, at, bytes);
            }
            block.setPointer(slot, null);
            return new Strings(argvPointer.getPointer(0), argvPointer, envPointer, dirPointer);
        }

        private static byte[][] encode(List<String> strings) {
            byte[][] bytes = new byte[strings.size()][];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = strings.get(i).getBytes(StandardCharsets.UTF_8);
            }
            return bytes;
        }

        private static long put(Memory block, long at, byte[] bytes) {
            block.write(at, bytes, 0, bytes.length);
            block.setByte(at + bytes.length, (byte) 0);
            return at + bytes.length + 1;
        }

        Scratch() {
            // An attribute set is plain data: made once per thread, used by every spawn on it.
            LibC.posix_spawnattr_init(attr);
            LibC.sigemptyset(sigset);
            LibC.posix_spawnattr_setsigmask(attr, sigset);
            LibC.posix_spawnattr_setflags(attr, LibC.POSIX_SPAWN_SETSIGMASK);
        }
    }

    /** Decided once per JVM, at the first use. */
    private static final class Probe {
        static final Availability RESULT = probe();

        private static Availability probe() {
            if (!Platform.isLinux() || !(Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64"))) {
                return new Availability(false, "not Linux on x86_64 or aarch64");
            }
            try {
                int[] pipe = new int[2];
                LibC.pipe2(pipe, LibC.O_CLOEXEC); // loads JNA and binds every symbol
                LibC.close(pipe[0]);
                LibC.close(pipe[1]);
                int self = (int) LibC.syscall(LibC.SYS_PIDFD_OPEN, ProcessHandle.current().pid(), 0);
                LibC.close(self);
                // A real spawn: a seccomp filter may refuse clone3/clone although the calls exist.
                run(List.of("true"), List.of(), Path.of("/"), ByteString.EMPTY, true, 10_000, 0, 0, pid -> {});
                return new Availability(true, "");
            } catch (IOException e) {
                String message = String.valueOf(e.getMessage());
                // The spawn itself worked when only the exec failed: no `true` on this PATH.
                return message.contains("error=2,") || message.contains("error=13,")
                        ? new Availability(true, "")
                        : new Availability(false, message);
            } catch (LastErrorException e) {
                return new Availability(false, "pidfd_open: " + e.getMessage());
            } catch (LinkageError | RuntimeException e) {
                return new Availability(false, e.toString());
            }
        }
    }
}
