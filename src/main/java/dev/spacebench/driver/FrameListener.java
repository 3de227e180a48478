package dev.spacebench.driver;

import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The loops' listener inside the driver: samples go into the frame writer's memory and out to the
 * pipe in batches, at most every {@value #FLUSH_EVERY_MS} ms or {@value #BATCH} samples, and at the end
 * of each phase; between flushes a round trip costs a record in a list. Progress rides along with
 * each flush (the latest only): the worker derives what it shows from what arrives.
 */
final class FrameListener implements MeasureListener {

    static final int BATCH = 512;
    static final long FLUSH_EVERY_MS = 200;
    private static final long FLUSH_EVERY_NS = FLUSH_EVERY_MS * 1_000_000;

    private final SampleFrames.Writer writer;
    private final DriverControl control;
    private Progress latest;
    private long lastFlush = System.nanoTime();

    FrameListener(SampleFrames.Writer writer, DriverControl control) {
        this.writer = writer;
        this.control = control;
    }

    @Override
    public void sample(Sample sample) {
        writer.sample(sample);
        if (writer.pendingSamples() >= BATCH) {
            flush();
        }
    }

    @Override
    public void progress(Progress progress) {
        latest = progress;
        if (progress.iteration() == progress.iterations() || System.nanoTime() - lastFlush >= FLUSH_EVERY_NS) {
            flush();
        }
    }

    /**
     * Tells the worker, then waits for its go: it writes what it has and lets its own JVM settle
     * before this loop is timed, as it did when the loops ran in its JVM.
     */
    @Override
    public void beforeMeasured(String metric) {
        try {
            flush();
            writer.beforeMeasured(metric);
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the pipe to the worker broke", e);
        }
        control.awaitGo();
    }

    @Override
    public boolean cancelRequested() {
        return control.cancelled();
    }

    @Override
    public void sweepWall(String metric, long ns) {
        try {
            writer.sweepWall(metric, ns);
        } catch (IOException e) {
            throw new UncheckedIOException("the pipe to the worker broke", e);
        }
    }

    @Override
    public void skipped(String metric, String reason) {
        try {
            writer.skipped(metric, reason);
        } catch (IOException e) {
            throw new UncheckedIOException("the pipe to the worker broke", e);
        }
    }

    /** Writes the samples and the latest progress so far to the pipe. */
    void flush() {
        try {
            if (latest != null) {
                writer.progress(latest);
                latest = null;
            }
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the pipe to the worker broke", e);
        }
        lastFlush = System.nanoTime();
    }
}
