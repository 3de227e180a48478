package dev.spacebench.run;

import dev.spacebench.run.samples.CsvPieceBuffer;
import dev.spacebench.run.samples.MetricSamples;
import dev.spacebench.run.samples.SampleCsv;
import dev.spacebench.run.samples.SampleCsvPieces;
import dev.spacebench.run.samples.SampleRows;
import dev.spacebench.run.samples.SortedSamples;
import dev.spacebench.environment.Environment;
import dev.spacebench.space.SpaceFacts;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The end a run's worker could not give it: when a run is marked INTERRUPTED by another start of
 * its app (it was killed mid-run) or by any app after its worker's lease ran out, its figures are
 * computed from the samples it stored, exactly as a finished run's are ({@link ResultCalculator}
 * over {@link MetricSamples}), and stored as a finished run stores them: the results, the sorted
 * samples ({@link SortedSamples}), samples.csv's last pieces ({@link SampleCsvPieces}) and the
 * sample count; the run is marked {@link Run#isFiguresFromStoredSamples()}. A metric with no
 * successful sample gets counts and no figures, as in any run.
 *
 * <p>A sweep's per-second figure needs the level's wall time, which only the worker knew: a
 * recovered sweep metric has none.
 */
@Component
public class InterruptedRunFigures {


    private final RunRepository runs;
    private final SampleRows rows;
    private final SampleCsvPieces pieces;
    private final SortedSamples sortedSamples;
    private final MetricResultRepository results;
    private final JdbcTemplate jdbc;

    InterruptedRunFigures(RunRepository runs, SampleRows rows, SampleCsvPieces pieces, SortedSamples sortedSamples,
                          MetricResultRepository results, JdbcTemplate jdbc) {
        this.runs = runs;
        this.rows = rows;
        this.pieces = pieces;
        this.sortedSamples = sortedSamples;
        this.results = results;
        this.jdbc = jdbc;
    }

    /**
     * Computes and stores the figures of a run just marked INTERRUPTED. Call inside the transaction
     * that marked it, after marking it: no worker adds a sample to a run that is not RUNNING, so the
     * rows read here are all there will be.
     *
     * @return the samples the run stored (what its figures and samples.csv cover)
     * @throws IllegalStateException if the run is not INTERRUPTED
     */
    public long compute(long runId) {
        Run run = runs.findById(runId).orElseThrow();
        if (run.getStatus() != RunStatus.INTERRUPTED) {
            throw new IllegalStateException("run " + runId + " is " + run.getStatus() + ", not INTERRUPTED");
        }
        long[] end = pieces.end(runId);
        // Pieces past a gap are never read (see SampleCsvPieces#copy); the new ones take their places.
        jdbc.update("delete from sample_csv_piece where run_id = ? and seq > ?", runId, end[0]);
        MetricSamples taken = new MetricSamples();
        CsvPieceBuffer csv = new CsvPieceBuffer((int) end[0]);
        List<CsvPieceBuffer.Piece> cut = new ArrayList<>();
        long[] count = {0};
        rows.eachRow(runId, rs -> {
            long id = rs.getLong(SampleCsv.COLUMN_COUNT + 1);
            taken.add(SampleCsv.sample(rs));
            count[0]++;
            if (id > end[1]) {
                csv.add(id, out -> SampleCsv.row(out, rs));
                if (csv.full()) {
                    cut.add(csv.next());
                    csv.stored();
                }
            }
        });
        CsvPieceBuffer.Piece rest = csv.next();
        if (rest != null) {
            cut.add(rest);
        }
        // A sweep level's wall time is no sample: the figures the worker stored as each metric ended carry it.
        for (MetricResult stored : results.findByRunIdOrderByPositionAsc(runId)) {
            if (stored.getWallNs() != null && taken.get(stored.getMetric()) != null) {
                taken.wall(stored.getMetric(), stored.getWallNs());
            }
        }
        List<MetricResult> computed = ResultCalculator.compute(runId, run.getPlan(), hasBulkLane(run), taken);
        results.deleteByRunId(runId);
        // Hibernate flushes inserts before deletes; the (run_id, metric) unique key needs the deletes first.
        results.flush();
        results.saveAll(computed);
        sortedSamples.replace(runId, taken.sortedMeasured());
        for (CsvPieceBuffer.Piece piece : cut) {
            pieces.store(runId, piece.seq(), piece.lastId(), piece.rows(), piece.text());
        }
        run.setSampleCount(count[0]);
        run.setFiguresFromStoredSamples(true);
        return count[0];
    }

    /**
     * Whether the run's Space had a bulk lane (which file sizes went through it follows from the
     * plan): the environment says so (recorded before the loops); in runs stored before it did, a
     * figure stored for a bulk-lane metric does.
     */
    private boolean hasBulkLane(Run run) {
        Environment env = run.getEnvironment();
        SpaceFacts.BulkLane lane = env == null || env.spaceFacts() == null ? null : env.spaceFacts().bulkLane();
        if (lane != null) {
            return lane.present();
        }
        return results.findByRunIdOrderByPositionAsc(run.getId()).stream().anyMatch(r -> "bulk".equals(r.getLane()));
    }
}
