package dev.spacebench.channel.container;

/** A container-exec call that failed: the engine's tool could not run, exited with an error, or timed out. */
public final class ContainerExecException extends RuntimeException {
    public ContainerExecException(String message, Throwable cause) {
        super(message, cause);
    }
}
