package dev.spacebench.measure;

/** The run was cancelled between two iterations; samples taken so far stand. */
public class CancelledException extends RuntimeException {
    public CancelledException() {
        super("cancelled by request");
    }
}
