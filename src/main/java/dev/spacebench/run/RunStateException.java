package dev.spacebench.run;

/** The run is in a state that does not allow what was asked (e.g. cancelling a finished run); REST answers 409. */
public class RunStateException extends RuntimeException {
    public RunStateException(String message) {
        super(message);
    }
}
