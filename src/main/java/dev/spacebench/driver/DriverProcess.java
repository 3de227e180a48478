package dev.spacebench.driver;

import dev.spacebench.measure.AbortedException;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import dev.spacebench.measure.SpaceLostException;
import dev.spacebench.space.local.AgentArchive;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.ProcessTrees;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The worker's side of a driver ({@link DriverMain}): starts it from the code this app runs, sends
 * it the job on its stdin, and hands what it sends to a {@link MeasureListener} on the calling
 * thread (the run's {@code RunRecorder} stores it as when the loops ran in this JVM). While the
 * driver measures, this thread only waits on the pipe, and polls {@link MeasureListener#cancelRequested()}
 * whenever the pipe is drained.
 *
 * <p>Every path ends with the driver gone: after its end frame it exits by itself; otherwise, and
 * when the caller's thread is interrupted, its process is killed and reaped before this returns. If
 * this JVM dies first, the driver sees its stdin close and halts ({@link DriverControl}).
 */
public final class DriverProcess {

    public static final String DRIVER_MAIN = "dev.spacebench.driver.DriverMain";
    /** The driver's heap: fixed and small; its loops keep only the samples of one batch. */
    static final long MAX_HEAP_MIB = 256;
    /**
     * What the driver needs beyond the agent's class path: the SSH channel's client (MINA SSHD) and
     * Jackson, with which the interleaved floor reads hyperfine's JSON.
     */
    static final List<String> DRIVER_LIBRARIES = List.of("sshd-", "slf4j-api-", "jackson-");
    /** How much of the driver's stderr is kept for the run's reason: its last words. */
    static final int LAST_WORDS_BYTES = 2048;

    /** The Space fact that says where the loops ran. */
    public static final String FACT = "loops timed in";

    private DriverProcess() {}

    /**
     * For the page's environment: "a driver process of its own (no Spring, no database, no web
     * server), JVM options …; not pinned to CPUs".
     */
    public static String describe(String cpus) {
        List<String> command = command(null);
        return "a driver process of its own (no Spring, no database, no web server), JVM options "
                + String.join(" ", command.subList(1, command.indexOf("-cp")))
                + (cpus == null ? "; not pinned to CPUs (spacebench.driver.cpus)" : "; pinned to CPUs " + cpus + " (taskset -c " + cpus + ")")
                + "; the app's CPUs: " + allowedCpus(Path.of("/proc/self/status"));
    }

    /** The CPUs a process may run on, from its status file's Cpus_allowed_list ("0-1"); "unknown" where it is not there. */
    static String allowedCpus(Path status) {
        try {
            for (String line : java.nio.file.Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return line.substring("Cpus_allowed_list:".length()).strip();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return "unknown";
    }

    /**
     * The driver's command line: this JVM's java, the agent's JVM options ({@link AgentLauncher#jvmOptions}:
     * SerialGC, a fixed young generation, VFORK where it exists, huge pages where offered) with a
     * {@value #MAX_HEAP_MIB} MiB heap, the agent's class-data archive and class path (the app's
     * classes and gRPC's jars only), and {@value #DRIVER_MAIN}. The same on every path that starts one.
     *
     * @param cpus {@code taskset -c}'s CPU list to pin it to (it execs the JVM: the pid stays the
     *     driver's, and every thread of it, JIT and GC included, runs there); null: not pinned
     */
    public static List<String> command(String cpus) {
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.add(AgentLauncher.javaBinary());
        command.addAll(AgentLauncher.jvmOptions(2 * MAX_HEAP_MIB));
        List<Path> entries = AgentLauncher.classPathEntriesWith(DRIVER_LIBRARIES);
        // The agent's archive: made for the agent's class path, which starts the driver's (a JVM may append to an archive's class path).
        AgentArchive.find(AgentLauncher.classPathEntries()).ifPresent(file -> command.add("-XX:SharedArchiveFile=" + file));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, entries.stream().map(Path::toString).toList()));
        command.add(DRIVER_MAIN);
        return command;
    }

    /**
     * Runs {@code job} in a driver of its own and reports its samples, progress and loop
     * announcements to {@code listener} as they arrive.
     *
     * @param started told the driver's pid once it runs (for tests and the run's log)
     * @return the facts the driver's loops collected
     * @throws CancelledException when the listener asked to stop and the driver stopped
     * @throws SpaceLostException as the loops in process throw it, with its message
     * @throws AbortedException as the loops in process throw it; or naming the driver's exit and its last words (stderr's tail) when it died
     *     or its output was corrupt or cut short; the samples received before stay with the listener
     * @throws IOException when the driver cannot be started
     */
    public static DriverResult run(DriverJob job, MeasureListener listener, LongConsumer started) throws IOException {
        return run(job, null, listener, started);
    }

    /** As {@link #run(DriverJob, MeasureListener, LongConsumer)}, pinned to {@code cpus} ({@link #command(String)}; null: not pinned). */
    public static DriverResult run(DriverJob job, String cpus, MeasureListener listener, LongConsumer started) throws IOException {
        return run(command(cpus), job, listener, started);
    }

    /** As {@link #run(DriverJob, String, MeasureListener, LongConsumer)}, with this command line (tests vary {@link #command(String)}'s). */
    static DriverResult run(List<String> command, DriverJob job, MeasureListener listener, LongConsumer started) throws IOException {
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        LastWords lastWords = LastWords.follow(process.getErrorStream());
        boolean ended = false;
        try {
            started.accept(process.pid());
            DataOutputStream commands = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()));
            job.write(commands);
            Reader reader = new Reader(listener, commands);
            SampleFrames.End end;
            try {
                end = SampleFrames.read(new BufferedInputStream(process.getInputStream(), 64 * 1024), reader, reader::pollCancel);
            } catch (IOException e) {
                throw new AbortedException(died(process, lastWords, e.getMessage()), null);
            }
            ended = true;
            return switch (end.outcome()) {
                case DONE -> {
                    if (reader.result == null) {
                        throw new AbortedException(died(process, lastWords, "the driver ended without its result frame"), null);
                    }
                    yield reader.result;
                }
                case CANCELLED -> throw new CancelledException();
                case SPACE_LOST -> throw new SpaceLostException(end.message(), null);
                case ABORTED -> throw new AbortedException(end.message(), null);
                case FAILED -> throw new AbortedException("the measuring driver failed: " + end.message(), null);
            };
        } finally {
            stop(process, ended);
            lastWords.close();
        }
    }

    /** "the measuring driver (pid 123) died: killed by signal 9 (SIGKILL); its output ended at byte …; its last words: …" */
    private static String died(Process process, LastWords lastWords, String what) {
        String exit;
        try {
            exit = process.waitFor(2, TimeUnit.SECONDS) ? exitInWords(process.exitValue()) : "still running, so it is killed";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = "not waited for (interrupted)";
        }
        lastWords.awaitEnd();
        String words = lastWords.text();
        return "the measuring driver (pid " + process.pid() + ") " + exit + ": " + what
                + (words.isBlank() ? "; it wrote nothing to stderr" : "; its last words: " + words);
    }

    static String exitInWords(int code) {
        if (code > 128 && code < 160) {
            int signal = code - 128;
            String name = switch (signal) {
                case 9 -> " (SIGKILL)";
                case 15 -> " (SIGTERM)";
                case 11 -> " (SIGSEGV)";
                case 6 -> " (SIGABRT)";
                default -> "";
            };
            return "died, killed by signal " + signal + name;
        }
        return "exited with code " + code;
    }

    /** Closes its stdin (after the end frame it is exiting anyway); kills its tree if it does not go within 5 s, or at once on failure. */
    private static void stop(Process process, boolean ended) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // it is gone already
        }
        try {
            if (!ended || !process.waitFor(5, TimeUnit.SECONDS)) {
                ProcessTrees.kill(process.toHandle());
            }
            process.waitFor(5, TimeUnit.SECONDS); // reaped: no zombie left
        } catch (InterruptedException e) {
            ProcessTrees.kill(process.toHandle());
            Thread.currentThread().interrupt();
        }
    }

    /** Hands frames to the listener and answers the driver's announcements on its stdin. */
    private static final class Reader implements SampleFrames.Handler {
        private final MeasureListener listener;
        private final OutputStream commands;
        private boolean cancelSent;
        DriverResult result;

        Reader(MeasureListener listener, OutputStream commands) {
            this.listener = listener;
            this.commands = commands;
        }

        @Override
        public void samples(List<Sample> batch) {
            for (Sample s : batch) {
                listener.sample(s);
            }
        }

        @Override
        public void progress(Progress progress) {
            listener.progress(progress);
        }

        @Override
        public void beforeMeasured(String metric) {
            listener.beforeMeasured(metric);
            send(DriverJob.GO);
        }

        @Override
        public void sweepWall(String metric, long ns) {
            listener.sweepWall(metric, ns);
        }

        @Override
        public void skipped(String metric, String reason) {
            listener.skipped(metric, reason);
        }

        @Override
        public void result(DriverResult result) {
            this.result = result;
        }

        void pollCancel() {
            if (!cancelSent && listener.cancelRequested()) {
                cancelSent = true;
                send(DriverJob.CANCEL);
            }
        }

        private void send(int command) {
            try {
                commands.write(command);
                commands.flush();
            } catch (IOException e) {
                // The driver is gone: its output's end says so next.
            }
        }
    }

    /** The tail of the driver's stderr, kept by a daemon thread that drains it (so the driver never blocks on it). */
    static final class LastWords {
        private final byte[] ring = new byte[LAST_WORDS_BYTES];
        private long written;
        private final Thread thread;
        private final InputStream in;

        private LastWords(InputStream in) {
            this.in = in;
            this.thread = new Thread(this::drain, "driver-stderr");
            thread.setDaemon(true);
        }

        static LastWords follow(InputStream in) {
            LastWords words = new LastWords(in);
            words.thread.start();
            return words;
        }

        private void drain() {
            byte[] buffer = new byte[4096];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        for (int i = 0; i < n; i++) {
                            ring[(int) (written++ % ring.length)] = buffer[i];
                        }
                    }
                }
            } catch (IOException ignored) {
                // closed: the driver is gone
            }
        }

        void awaitEnd() {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The last {@value #LAST_WORDS_BYTES} bytes or fewer, as text, lines joined with " | ". */
        synchronized String text() {
            int length = (int) Math.min(written, ring.length);
            byte[] tail = new byte[length];
            for (int i = 0; i < length; i++) {
                tail[i] = ring[(int) ((written - length + i) % ring.length)];
            }
            return new String(tail, StandardCharsets.UTF_8).strip().replaceAll("\\s*\\R\\s*", " | ");
        }

        void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // nothing left to read
            }
        }
    }
}
