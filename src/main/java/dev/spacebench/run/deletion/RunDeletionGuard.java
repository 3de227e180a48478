package dev.spacebench.run.deletion;

/** Something that keeps a finished run from being deleted (e.g. a benchmark it answers). */
public interface RunDeletionGuard {

    /** @return why the run must be kept, in words for a 409; null when this guard lets it go */
    String whyKept(long runId);
}
