package dev.spacebench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the processes that carry one environment entry, e.g. {@code SPACEBENCH_EXEC=41-7}, by
 * reading {@code /proc/PID/environ}. A process inherits its parent's environment, so a mark set
 * on a command reaches everything it starts, also what left its process group or session
 * ({@code setsid}, a double fork) and was re-parented to init, out of reach of
 * {@link ProcessHandle#descendants()}.
 *
 * <p>Limits: a process that was exec'd with a cleaned environment ({@code env -i}) carries no
 * mark, and another user's processes cannot be read. Only used off the measured path (on a
 * timeout, at a Space's delete): a scan reads every process's environment.
 */
public final class MarkedProcesses {

    private MarkedProcesses() {}

    /**
     * Every running process except this one whose initial environment holds {@code name=value}.
     *
     * @param name an environment variable name
     * @param value its exact value
     */
    public static List<ProcessHandle> find(String name, String value) {
        byte[] entry = (name + "=" + value).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> isPid(p.getFileName().toString()))) {
            for (Path proc : procs) {
                long pid = Long.parseLong(proc.getFileName().toString());
                if (pid != self && holds(proc.resolve("environ"), entry)) {
                    ProcessHandle.of(pid).ifPresent(found::add);
                }
            }
        } catch (IOException e) {
            // no /proc: nothing can be found this way
        }
        return found;
    }

    /**
     * SIGKILLs every process that carries the mark, again until none is left (one may have forked
     * while the first were killed), at most 5 rounds.
     *
     * @return how many processes were signalled
     */
    public static int kill(String name, String value) {
        int killed = 0;
        for (int round = 0; round < 5; round++) {
            List<ProcessHandle> marked = find(name, value);
            if (marked.isEmpty()) {
                break;
            }
            for (ProcessHandle process : marked) {
                process.destroyForcibly();
                killed++;
            }
        }
        return killed;
    }

    private static boolean holds(Path environ, byte[] entry) {
        byte[] env;
        try {
            env = Files.readAllBytes(environ);
        } catch (IOException | RuntimeException e) {
            return false; // gone, a kernel thread, or another user's
        }
        // Entries are NUL-terminated: match a whole entry, at the start or after a NUL.
        for (int at = 0; at + entry.length <= env.length; ) {
            int end = indexOf(env, (byte) 0, at);
            int stop = end < 0 ? env.length : end;
            if (stop - at == entry.length && Arrays.equals(env, at, stop, entry, 0, entry.length)) {
                return true;
            }
            if (end < 0) {
                break;
            }
            at = end + 1;
        }
        return false;
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isPid(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
