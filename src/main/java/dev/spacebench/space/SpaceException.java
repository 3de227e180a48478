package dev.spacebench.space;

/** A Space could not be created or did not become ready; the message says why. */
public class SpaceException extends Exception {
    public SpaceException(String message) {
        super(message);
    }

    public SpaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
