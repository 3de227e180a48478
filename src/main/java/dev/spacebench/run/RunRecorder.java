package dev.spacebench.run;

import dev.spacebench.run.samples.CsvPieceBuffer;
import dev.spacebench.run.samples.MetricSamples;
import dev.spacebench.run.samples.RunSample;
import dev.spacebench.run.samples.SampleBatches;
import dev.spacebench.run.samples.SampleCsv;
import dev.spacebench.run.samples.SampleCsvPieces;
import dev.spacebench.measure.MeasureListener;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Progress;
import dev.spacebench.measure.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persists a run's samples in batches, its progress at most every 200 ms (and at each phase's
 * last iteration), and polls the database for a cancel request at most every 250 ms — so that
 * neither the database nor the polling sits inside the loops' timed regions noticeably often.
 * Keeps what the figures need in memory too ({@link MetricSamples}: primitive arrays, not objects).
 * <p>
 * Each batch goes in only while the run is still this worker's and RUNNING, checked with the run's
 * row locked in the batch's own transaction ({@link SampleBatches}, plain JDBC): a worker that was frozen past its lease, and whose run
 * another app marked INTERRUPTED meanwhile, adds nothing to it when it comes back, and stops.
 * <p>
 * As batches commit, their rows are also formatted into samples.csv's text, stored in pieces of
 * about 256 KiB ({@link SampleCsvPieces}) in the transaction of the batch after, and the rest by
 * {@link #sealCsv()} at the run's end: a download then copies stored text.
 */
final class RunRecorder implements MeasureListener {

    private static final Logger log = LoggerFactory.getLogger(RunRecorder.class);

    static final int BATCH = 500;
    /**
     * How often the loops write their progress and look for a cancel request: once a second each.
     * Why not more often: both are database work on the measuring thread between round trips, and
     * at 200 and 250 ms they were 55% of that thread's CPU in an exec `true` loop (perf, issue 10)
     * and kept the app's C2 compiling H2 and Hibernate code during the loops, next to the Space on a
     * small host. A person watching a run sees its progress within a second, and a cancel takes
     * effect within a second plus the round trip under way.
     */
    private static final long PROGRESS_EVERY_NS = 1_000_000_000L;
    private static final long CANCEL_POLL_EVERY_NS = 1_000_000_000L;

    private final long runId;
    private final String worker;
    private final SampleBatches batches;
    private final SampleBatches.Ids ids;
    private final RunRepository runs;
    private final BooleanSupplier stopping;
    private final MetricSamples all = new MetricSamples();
    /** samples.csv's text of the rows saved since the last stored piece. */
    private final CsvPieceBuffer csv = new CsvPieceBuffer(0);
    private final List<RunSample> pending = new ArrayList<>();
    private long saved;
    private long lastProgress;
    private long lastCancelPoll;
    private boolean cancelSeen;
    private boolean lost;
    private Runnable metricDone = () -> { };
    private Runnable beforeMeasured = () -> { };

    /**
     * @param worker the worker that claimed the run (the run's {@code worker} column)
     * @param stopping true when the app is shutting down; the loops then stop like a cancel
     */
    RunRecorder(long runId, String worker, SampleBatches batches, RunRepository runs, BooleanSupplier stopping) {
        this.runId = runId;
        this.worker = worker;
        this.batches = batches;
        this.ids = batches.ids();
        this.runs = runs;
        this.stopping = stopping;
        this.lastProgress = System.nanoTime() - PROGRESS_EVERY_NS;
        this.lastCancelPoll = System.nanoTime() - CANCEL_POLL_EVERY_NS;
    }

    /**
     * Runs {@code action} after the last measured iteration of each metric, with the samples
     * flushed: between iterations, outside every timed region.
     */
    void onMetricDone(Runnable action) {
        this.metricDone = action;
    }

    /**
     * Runs {@code action} after each metric's warm-ups, before its first measured iteration, with
     * the samples so far written first (so that their database work is done, and compiled, before it).
     */
    void beforeMeasured(Runnable action) {
        this.beforeMeasured = action;
    }

    @Override
    public void beforeMeasured(String metric) {
        flush();
        beforeMeasured.run();
    }

    @Override
    public void sample(Sample sample) {
        all.add(sample);
        pending.add(new RunSample(runId, sample.metric(), sample.iteration(), sample.phase().wireName(), sample.ns(),
                sample.bytes(), sample.ok(), sample.error(), sample.agentNs(), sample.level(), sample.spaceIndex(), sample.block(),
                sample.seq()));
        if (pending.size() >= BATCH) {
            flush();
        }
    }

    /** Stored at once (a skipped metric has no samples to carry its reason): the page's Channels table shows it. */
    @Override
    public void skipped(String metric, String reason) {
        if (!lost) {
            batches.skipped(runId, metric, reason);
        }
    }

    @Override
    public void sweepWall(String metric, long ns) {
        all.wall(metric, ns);
    }

    @Override
    public void progress(Progress p) {
        long now = System.nanoTime();
        if (now - lastProgress >= PROGRESS_EVERY_NS || p.iteration() == p.iterations()) {
            lastProgress = now;
            runs.updateProgress(runId, p.metric(), p.phase().wireName(), p.iteration(), p.iterations(), p.done(), p.total());
        }
        if (p.phase() == Phase.MEASURED && p.iteration() == p.iterations()) {
            flush();
            metricDone.run();
        }
    }

    @Override
    public boolean cancelRequested() {
        if (lost || stopping.getAsBoolean()) {
            return true;
        }
        long now = System.nanoTime();
        if (!cancelSeen && now - lastCancelPoll >= CANCEL_POLL_EVERY_NS) {
            lastCancelPoll = now;
            cancelSeen = runs.isCancelRequested(runId);
        }
        return cancelSeen;
    }

    /**
     * Writes what is pending, or drops it once the run is no longer this worker's (then
     * {@link #cancelRequested()} is true from here on). Safe to call any number of times.
     */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        if (!lost) {
            // A full piece goes in with the next batch, in one transaction: no extra commit in the loops.
            CsvPieceBuffer.Piece full = csv.full() ? csv.next() : null;
            lost = !batches.write(runId, worker, pending, ids, full);
            if (lost) {
                log.warn("run {}: no longer this worker's (another app ended it); {} samples taken since are not saved",
                        runId, pending.size());
            } else {
                saved += pending.size();
                if (full != null) {
                    csv.stored();
                }
                for (RunSample row : pending) {
                    csv.add(row.getId(), out -> SampleCsv.row(out, row));
                }
            }
        }
        pending.clear();
    }

    /**
     * Stores the samples.csv text of the saved rows not in a piece yet (call after the last
     * {@link #flush()}). A failure here loses no sample: the export formats those rows instead.
     */
    void sealCsv() {
        CsvPieceBuffer.Piece rest = lost ? null : csv.next();
        if (rest == null) {
            return;
        }
        batches.store(runId, rest);
        csv.stored();
    }

    /** True once a flush found the run no longer this worker's. */
    boolean lost() {
        return lost;
    }

    /** Samples written so far; null while some are still waiting to be (or failed to be) written. */
    Long savedCount() {
        return pending.isEmpty() && !lost ? saved : null;
    }

    /** What the figures need of every sample so far. */
    MetricSamples samples() {
        return all;
    }
}
