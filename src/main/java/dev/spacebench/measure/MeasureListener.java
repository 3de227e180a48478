package dev.spacebench.measure;

/** Where the loops report to. Called from the measuring thread only. */
public interface MeasureListener {

    /** Every sample, warm-ups and failures included, in the order taken. */
    void sample(Sample sample);

    /** After each iteration. */
    void progress(Progress progress);

    /** Polled between iterations; true stops the loops with {@link CancelledException}. */
    boolean cancelRequested();
}
