package dev.spacebench.measure;

import dev.spacebench.channel.AgentCallException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * Tells a failed iteration that ends the run (the agent is gone, a disk is full) from one that is
 * only counted (a command that exited non-zero, one slow call). Ending the run at once keeps a
 * dead Space from being reported as a run with a few failed samples.
 */
final class FatalFailures {

    /** strerror(ENOSPC), as both the JDK and the agent's status messages carry it. */
    static final String ENOSPC = "No space left on device";

    private FatalFailures() {}

    /**
     * @param failure what the iteration threw (null when it failed without an exception, e.g. exit code 1)
     * @param hostStaging the host's staging directory (source files, stream downloads)
     * @param where e.g. "file.upload.16MiB iteration 3"
     * @return the run's failure reason when this failure ends it; null when it is only counted
     */
    static String reason(Throwable failure, Path hostStaging, String where) {
        if (failure == null) {
            return null;
        }
        if (mentions(failure, ENOSPC)) {
            return (hostSide(failure, hostStaging) ? "the disk of the host's staging directory " + hostStaging
                    : "the disk of the Space") + " is full (" + ENOSPC + ") during " + where;
        }
        Status.Code code = code(failure);
        if (code == Status.Code.UNAVAILABLE) {
            return "the agent stopped answering (" + statusText(failure) + ") during " + where;
        }
        return null;
    }

    /**
     * True when the failure is the run's own database's (an {@link java.sql.SQLException} among its
     * causes: saving a sample failed inside the iteration), not the Space's: it is not counted as a
     * failed sample, and a full disk there is not the Space's disk.
     */
    static boolean database(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException) {
                return true;
            }
        }
        return false;
    }

    /** The run's failure reason when a Ping right after a failed iteration fails too. */
    static String agentGone(Throwable pingFailure, String where, String iterationError) {
        return "the agent stopped answering (Ping after the failure: " + statusText(pingFailure) + ") during " + where
                + (iterationError == null ? "" : "; the iteration failed with: " + iterationError);
    }

    private static boolean hostSide(Throwable failure, Path hostStaging) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StatusRuntimeException || t instanceof AgentCallException) {
                return false; // the agent said so: its disk
            }
            if (t instanceof FileSystemException fse && fse.getFile() != null && hostStaging != null) {
                // A copy names its source first and the file it was writing second.
                String written = fse.getOtherFile() != null ? fse.getOtherFile() : fse.getFile();
                return Path.of(written).toAbsolutePath().startsWith(hostStaging.toAbsolutePath());
            }
        }
        // An IOException without a file: the host's own write (the bulk lane's copy names its file).
        return failure instanceof java.io.IOException || failure instanceof java.io.UncheckedIOException;
    }

    private static boolean mentions(Throwable failure, String text) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(text)) {
                return true;
            }
        }
        return false;
    }

    private static Status.Code code(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AgentCallException ace) {
                return ace.code();
            }
            if (t instanceof StatusRuntimeException sre) {
                return sre.getStatus().getCode();
            }
        }
        return null;
    }

    /** "UNAVAILABLE: io exception", or the message where there is no gRPC status. */
    static String statusText(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof StatusRuntimeException sre) {
                String description = sre.getStatus().getDescription();
                return sre.getStatus().getCode() + (description == null ? "" : ": " + description);
            }
        }
        return failure.getMessage() == null ? failure.toString() : failure.getMessage();
    }
}
