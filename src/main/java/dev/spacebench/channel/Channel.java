package dev.spacebench.channel;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How the worker reaches one Space: the seam the measurement loops time. Implementations: the
 * gRPC agent ({@link AgentChannel}), SSH ({@code channel.ssh.SshChannel}). Domain types only: no
 * transport's classes cross it.
 *
 * <p>Every transfer is checked end to end: the far side computes the SHA-256 of what it stored or
 * sends, inside the caller's timed region, and the host compares it with what it knows.
 *
 * <p>Errors: a RuntimeException naming the call for a failed call (for the agent
 * {@link AgentCallException}), {@link TransferException} when bytes differ, {@link IOException}
 * for host-side file trouble, {@link UnsupportedOperationException} for an operation
 * {@link #unsupported} names.
 */
public interface Channel extends AutoCloseable {

    /** What a channel may or may not be able to do. */
    enum Operation {
        /** A round trip that runs nothing on the far side. */
        NOOP,
        /** Running an argv. */
        EXEC,
        /** Upload, download and delete of files. */
        FILES
    }

    /** The channel's name as requests, samples and pages give it: {@code agent}, {@code ssh}. */
    String id();

    /**
     * Why this channel cannot do {@code operation}, in words for a page (e.g. "container exec has
     * no round trip that runs nothing"); empty when it can.
     */
    default Optional<String> unsupported(Operation operation) {
        return Optional.empty();
    }

    /** The no-op round trip; fails after {@code timeout}. */
    void noop(Duration timeout);

    /**
     * Runs {@code argv} in the Space, output captured, and waits for it.
     *
     * @return its exit code and output; {@link ExecResult#agentDurationNs()} is 0 where the far side reports no time
     */
    ExecResult exec(List<String> argv, Duration timeout);

    /** Whether this channel has a bulk lane ({@link Lane#BULK}); without one every file takes {@link Lane#STREAM}. */
    default boolean hasBulkLane() {
        return false;
    }

    /**
     * Sends a host file into the Space.
     *
     * @param source the host file; its size and SHA-256 must be {@code expected}
     * @param expected size and SHA-256 of {@code source}, known beforehand
     * @param remotePath destination relative to the Space's work directory (parents made as needed)
     * @return what the far side stored, by its own SHA-256, equal to {@code expected}
     * @throws TransferException if the far side stored something else
     */
    FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) throws IOException;

    /**
     * Fetches a file from the Space into a new host file.
     *
     * @param remotePath relative to the Space's work directory
     * @param expected size and SHA-256 the file must have (the far side's SHA-256 is checked too)
     * @param destination host file to create (must not exist)
     * @return what the host received, equal to {@code expected}
     * @throws TransferException if the far side sent, or the host received, something else
     */
    FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) throws IOException;

    /** Removes a file in the Space's work directory (outside every timed region); true if it was there. */
    boolean delete(String remotePath, Duration timeout);

    /**
     * The far side's own time on the last upload or download, in ns, as it reported it; 0 when that
     * transfer failed or the far side reports none. One measuring thread per channel reads it right after.
     */
    default long lastTransferFarNs() {
        return 0;
    }

    /** The Spacebench agent JVM at the far end, for the untimed JIT settle and GC counts; empty where there is none. */
    default Optional<AgentJvm> agentJvm() {
        return Optional.empty();
    }

    /** Closes the connection; never throws. */
    @Override
    void close();
}
