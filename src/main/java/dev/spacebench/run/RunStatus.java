package dev.spacebench.run;

/** A run's life: QUEUED → RUNNING → SUCCEEDED / FAILED / CANCELLED, or INTERRUPTED when the app stopped under it. */
public enum RunStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED, INTERRUPTED;

    public boolean finished() {
        return this != QUEUED && this != RUNNING;
    }
}
