package dev.spacebench.agent;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;

/** Maps what went wrong in the agent to a gRPC status whose message says what and why. */
final class AgentStatus {

    private AgentStatus() {}

    static Status of(Throwable e) {
        if (e instanceof StatusRuntimeException sre) {
            return sre.getStatus();
        }
        if (e instanceof WorkDir.PathOutsideWorkDirException || e instanceof IllegalArgumentException) {
            return Status.INVALID_ARGUMENT.withDescription(e.getMessage());
        }
        if (e instanceof DigestMismatchException) {
            return Status.DATA_LOSS.withDescription(e.getMessage());
        }
        if (e instanceof NoSuchFileException) {
            return Status.NOT_FOUND.withDescription("no such file: " + e.getMessage());
        }
        if (e instanceof FileAlreadyExistsException) {
            return Status.ALREADY_EXISTS.withDescription("file exists: " + e.getMessage());
        }
        if (e instanceof AccessDeniedException) {
            return Status.PERMISSION_DENIED.withDescription("access denied: " + e.getMessage());
        }
        if (e instanceof InterruptedException) {
            return Status.CANCELLED.withDescription("the agent was interrupted");
        }
        return Status.INTERNAL.withDescription(e.getClass().getSimpleName() + ": " + e.getMessage()).withCause(e);
    }
}
