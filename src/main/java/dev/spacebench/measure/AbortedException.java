package dev.spacebench.measure;

/** The loops gave up: too many failures in a row to go on measuring anything meaningful. */
public class AbortedException extends RuntimeException {
    public AbortedException(String message, Throwable cause) {
        super(message, cause);
    }
}
