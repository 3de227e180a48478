package dev.spacebench.agent;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The glibc calls of the native spawn path ({@link NativeSpawn}), bound with JNA's direct mapping
 * (a JNI call per function, no proxy). Loading this class registers every function at once: a
 * missing symbol (glibc older than 2.34 has no {@code posix_spawn_file_actions_addclosefrom_np})
 * fails the load with an {@link UnsatisfiedLinkError}, and the agent keeps the JDK's path.
 *
 * <p>Constants are Linux's on x86_64 and aarch64, the only architectures the native path runs on.
 * Functions declared {@code throws LastErrorException} report errno that way; the posix_spawn
 * family returns its error number instead.
 */
final class LibC {

    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    static final short POLLIN = 0x1;
    static final short POLLOUT = 0x4;
    static final short POLLERR = 0x8;
    static final short POLLHUP = 0x10;
    static final short POLLNVAL = 0x20;
    static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EPIPE = 32;
    /** pidfd_open's syscall number, the same on x86_64 and aarch64 (Linux 5.3+). */
    static final long SYS_PIDFD_OPEN = 434;
    /** Larger than glibc's posix_spawn_file_actions_t (80 bytes on 64-bit). */
    static final int FILE_ACTIONS_BYTES = 256;
    /** Larger than glibc's posix_spawnattr_t (336 bytes on 64-bit). */
    static final int SPAWN_ATTR_BYTES = 512;
    /** glibc's sigset_t: 1024 bits. */
    static final int SIGSET_BYTES = 128;
    /** struct pollfd: int fd, short events, short revents. */
    static final int POLLFD_BYTES = 8;

    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {}

    static native int pipe2(int[] fds, int flags) throws LastErrorException;

    static native int fcntl(int fd, int cmd, int arg) throws LastErrorException;

    static native int close(int fd);

    static native long read(int fd, Pointer buffer, long count) throws LastErrorException;

    static native long write(int fd, Pointer buffer, long count) throws LastErrorException;

    static native int poll(Pointer fds, long count, int timeoutMillis) throws LastErrorException;

    static native int waitpid(int pid, int[] status, int options) throws LastErrorException;

    static native long syscall(long number, long first, long second) throws LastErrorException;

    static native String strerror(int errno);

    static native int sigemptyset(Pointer set);

    static native int posix_spawn_file_actions_init(Pointer actions);

    static native int posix_spawn_file_actions_destroy(Pointer actions);

    static native int posix_spawn_file_actions_addopen(Pointer actions, int fd, Pointer path, int flags, int mode);

    static native int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newFd);

    static native int posix_spawn_file_actions_addchdir_np(Pointer actions, Pointer path);

    static native int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

    static native int posix_spawnattr_init(Pointer attr);

    static native int posix_spawnattr_destroy(Pointer attr);

    static native int posix_spawnattr_setflags(Pointer attr, short flags);

    static native int posix_spawnattr_setsigmask(Pointer attr, Pointer set);

    static native int posix_spawnp(int[] pid, Pointer file, Pointer actions, Pointer attr, Pointer argv, Pointer envp);
}
