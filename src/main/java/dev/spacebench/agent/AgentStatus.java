package dev.spacebench.agent;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Set;

/**
 * Maps what went wrong in the agent to a gRPC status whose message says what and why. Messages are
 * cut to {@value #MAX_DESCRIPTION_CHARS} characters: they may carry paths the client sent, and a
 * status over the peer's metadata limit reaches it as RESOURCE_EXHAUSTED instead.
 */
final class AgentStatus {

    static final int MAX_DESCRIPTION_CHARS = 300;

    /** strerror texts of a bad path rather than a broken agent. */
    private static final Set<String> BAD_PATH_REASONS = Set.of("Is a directory", "Not a directory", "File name too long",
            "Directory not empty");

    private AgentStatus() {}

    static Status of(Throwable e) {
        if (e instanceof StatusRuntimeException sre) {
            return sre.getStatus();
        }
        if (e instanceof WorkDir.PathOutsideWorkDirException || e instanceof IllegalArgumentException) {
            return invalid(e.getMessage());
        }
        if (e instanceof DigestMismatchException) {
            return Status.DATA_LOSS.withDescription(cut(e.getMessage()));
        }
        if (e instanceof NoSuchFileException) {
            return Status.NOT_FOUND.withDescription(cut("no such file: " + e.getMessage()));
        }
        if (e instanceof FileAlreadyExistsException) {
            return Status.ALREADY_EXISTS.withDescription(cut("file exists: " + e.getMessage()));
        }
        if (e instanceof AccessDeniedException) {
            return Status.PERMISSION_DENIED.withDescription(cut("access denied: " + e.getMessage()));
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null && BAD_PATH_REASONS.contains(fse.getReason())) {
            return invalid(fse.getReason() + ": " + ClientText.quote(fse.getFile()));
        }
        if (e instanceof InterruptedException) {
            return Status.CANCELLED.withDescription("the agent was interrupted");
        }
        return Status.INTERNAL.withDescription(cut(e.getClass().getSimpleName() + ": " + e.getMessage())).withCause(e);
    }

    static Status invalid(String message) {
        return Status.INVALID_ARGUMENT.withDescription(cut(message));
    }

    static String cut(String message) {
        if (message == null || message.length() <= MAX_DESCRIPTION_CHARS) {
            return message;
        }
        return message.substring(0, MAX_DESCRIPTION_CHARS) + "… (cut from " + message.length() + " chars)";
    }
}
