package dev.spacebench.measure;

/**
 * Measuring cannot go on: the agent stopped answering, or the disk of the host or of the Space is
 * full. The message says which, in plain words, and at which metric and iteration.
 */
public class SpaceLostException extends AbortedException {
    public SpaceLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
