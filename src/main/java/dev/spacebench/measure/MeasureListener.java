package dev.spacebench.measure;

/** Where the loops report to. Called from the measuring thread only. */
public interface MeasureListener {

    /** Every sample, warm-ups and failures included, in the order taken. */
    void sample(Sample sample);

    /**
     * After a metric's warm-ups, before its first measured iteration (also when it has no
     * warm-ups): outside every timed region, the place to let this JVM's background work settle.
     */
    default void beforeMeasured(String metric) {
    }

    /**
     * A metric of the plan the channel cannot do, so not run (no samples follow for it), with the
     * channel's reason in words for the page; in plan order, instead of that metric's samples.
     */
    default void skipped(String metric, String reason) {
    }

    /** After each iteration. */
    void progress(Progress progress);

    /** Polled between iterations; true stops the loops with {@link CancelledException}. */
    boolean cancelRequested();

    /**
     * A concurrency sweep's wall time for one of its metric ids ({@code sweep.L.<metric>}): from the
     * level's start (for that metric) to its last sample, in ns. Called before that metric's samples.
     */
    default void sweepWall(String metric, long ns) {
    }
}
