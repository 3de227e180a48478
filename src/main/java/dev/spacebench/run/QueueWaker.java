package dev.spacebench.run;

/**
 * Told when a run has been queued, so that a worker claims it without waiting for its next poll.
 * Owned here and implemented by the worker ({@code fleet.RunWorker}), so that run does not import
 * the fleet that claims its runs.
 */
public interface QueueWaker {

    /** Returns at once; the claim happens on another thread. */
    void wake();
}
