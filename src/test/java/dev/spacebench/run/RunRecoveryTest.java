package dev.spacebench.run;

import dev.spacebench.fleet.RunWorker;
import dev.spacebench.run.samples.SampleBatches;
import dev.spacebench.run.samples.SortedSamples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.fleet.Leases;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A run left RUNNING by an app that was killed is INTERRUPTED at the next start, and a run whose
 * worker's lease ran out is INTERRUPTED by any app; either way its figures are computed from the
 * samples it stored, samples.csv is sealed and its sorted samples stored. Other workers' runs are
 * left alone. The expected figures and samples.csv are computed here from the stored rows, not by
 * the app's calculator or formatter.
 */
class RunRecoveryTest extends AppTestSupport {

    @Autowired
    RunRepository runs;
    @Autowired
    RunWorker worker;
    @Autowired
    SampleBatches batches;
    @Autowired
    MetricResultRepository results;
    @Autowired
    SortedSamples sortedSamples;
    @Autowired
    Leases leases;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcTemplate jdbc;

    private static final String UNMADE = "kind-no-worker-makes";

    @Test
    void runsThisWorkerLeftRunningBecomeInterruptedWithTheFiguresOfTheirStoredSamples() throws Exception {
        // A kind no worker makes: the app's own worker, polling all along, must not claim these
        // runs before the test does (it did now and then with "process").
        SpaceSpec spec = new SpaceSpec(UNMADE, null, null);
        Plan plan = Plans.quick();
        Run mine = runs.save(new Run(UNMADE, spec, plan, 10, Instant.now()));
        Run theirs = runs.save(new Run(UNMADE, spec, plan, 10, Instant.now()));
        // Claim both as if two machines had taken them and then stopped.
        assertThat(runs.claim(mine.getId(), worker.workerId(), Instant.now())).isEqualTo(1);
        assertThat(runs.claim(theirs.getId(), "another-machine", Instant.now())).isEqualTo(1);

        // Killed in its first metric: samples saved in batches, part of samples.csv stored as a piece
        // (about 256 KiB of text), the rest not, and no figures for the metric it was in.
        StringBuilder csv = takeAndKill(mine.getId(), worker.workerId(), 9_002);
        assertThat(jdbc.queryForObject("select count(*) from sample_csv_piece where run_id = ?", Integer.class, mine.getId()))
                .as("pieces stored before the kill").isEqualTo(1);
        assertThat(results.findByRunIdOrderByPositionAsc(mine.getId())).as("figures before the kill").isEmpty();

        worker.interruptLeftovers();

        Run after = runs.findById(mine.getId()).orElseThrow();
        assertThat(after.getStatus()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(after.getFailureReason()).contains("the app stopped while this run was RUNNING");
        assertThat(after.getFinishedAt()).isNotNull();
        assertThat(runs.findById(theirs.getId()).orElseThrow().getStatus()).isEqualTo(RunStatus.RUNNING);
        assertThat(results.findByRunIdOrderByPositionAsc(theirs.getId())).as("figures of the other machine's run").isEmpty();
        assertFiguresOfStoredSamples(mine.getId(), csv);
        // Its page says in its first lines that it was interrupted, why, and what its figures cover.
        long stored = count(mine.getId());
        String page = get("/runs/" + mine.getId()).body();
        assertThat(page).contains("This run ended INTERRUPTED (the app stopped while this run was RUNNING (found at the next start)); "
                        + "its figures cover only the " + stored + " samples taken before the interruption (computed from the stored "
                        + "samples when the run was found interrupted): a ")
                .contains("(p50, n = " + measuredOk(mine.getId(), "exec.noop").length + ", " + failed(mine.getId()) + " failed)")
                .doesNotContain("before its figures were computed", "before any round trip succeeded");
        // A second claim of the same run fails: no run is measured twice.
        assertThat(runs.claim(theirs.getId(), worker.workerId(), Instant.now())).isZero();
    }

    @Test
    void aRunWhoseLeaseRanOutIsInterruptedWithTheFiguresOfItsStoredSamples() throws Exception {
        SpaceSpec spec = new SpaceSpec(UNMADE, null, null);
        long id = runs.save(new Run(UNMADE, spec, Plans.quick(), 10, Instant.now())).getId();
        assertThat(runs.claim(id, "worker-gone", Instant.now())).isEqualTo(1);
        StringBuilder csv = takeAndKill(id, "worker-gone", 1_502);
        // Its worker stopped renewing: the lease ran out a minute ago.
        jdbc.update("update run set lease_until = ? where id = ?", Timestamp.from(Instant.now().minus(Duration.ofMinutes(1))), id);

        // This app's own reaper may be first; either way the same code marks it.
        leases.expire("the test");

        Run after = runs.findById(id).orElseThrow();
        assertThat(after.getStatus()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(after.getFailureReason()).contains("'worker-gone'", "stopped renewing its lease");
        assertFiguresOfStoredSamples(id, csv);
        String page = get("/runs/" + id).body();
        assertThat(page).contains("This run ended INTERRUPTED (its worker &#39;worker-gone&#39;",
                "its figures cover only the " + count(id) + " samples taken before the interruption (computed from the stored samples");
    }

    @Test
    void aSweepLevelFinishedBeforeTheKillKeepsItsRatePerSecond() {
        SpaceSpec spec = new SpaceSpec(UNMADE, null, null);
        Plan quick = Plans.quick();
        Plan plan = new Plan(quick.exec(), quick.files(), quick.floor(), quick.spaces(),
                new ConcurrencyPlan(List.of(2, 4), List.of("noop"), 20, null, null));
        long id = runs.save(new Run(UNMADE, spec, plan, 10, Instant.now())).getId();
        assertThat(runs.claim(id, worker.workerId(), Instant.now())).isEqualTo(1);
        RunRecorder recorder = new RunRecorder(id, worker.workerId(), batches, runs, () -> false);
        // Level 2 finished: 2 Spaces × 20 round trips, its wall time recorded, the figures stored as
        // the worker stores them at a metric's end. Level 4 was cut off in its loops: no wall time.
        for (int space = 0; space < 2; space++) {
            for (int i = 1; i <= 20; i++) {
                recorder.sample(new Sample("sweep.2.exec.noop", i, Phase.MEASURED, 300_000 + 1_000L * i + space, 0, true, null, null, 2, space));
            }
        }
        long wallNs = 12_500_000;
        recorder.sweepWall("sweep.2.exec.noop", wallNs);
        recorder.flush();
        List<MetricResult> interim = ResultCalculator.compute(id, plan, false, recorder.samples());
        transactions.executeWithoutResult(tx -> results.saveAll(interim));
        for (int i = 1; i <= 7; i++) {
            recorder.sample(new Sample("sweep.4.exec.noop", i, Phase.MEASURED, 400_000 + i, 0, true, null, null, 4, i % 4));
        }
        recorder.flush();

        worker.interruptLeftovers();

        assertThat(runs.findById(id).orElseThrow().getStatus()).isEqualTo(RunStatus.INTERRUPTED);
        Map<String, MetricResult> figures = new java.util.HashMap<>();
        results.findByRunIdOrderByPositionAsc(id).forEach(r -> figures.put(r.getMetric(), r));
        MetricResult level2 = figures.get("sweep.2.exec.noop");
        assertThat(level2.getN()).isEqualTo(40);
        assertThat(level2.getWallNs()).isEqualTo(wallNs);
        assertThat(level2.getPerSecond()).isCloseTo(40 / 0.0125, org.assertj.core.data.Offset.offset(1e-6));
        MetricResult level4 = figures.get("sweep.4.exec.noop");
        assertThat(level4.getN()).isEqualTo(7);
        assertThat(level4.getWallNs()).as("a level cut off has no wall time").isNull();
        assertThat(level4.getPerSecond()).isNull();
    }

    /**
     * Saves {@code measured} exec.noop samples (random times, every 1000th failed: n odd for 9002 and 1502) after 5 warm-ups,
     * and two failed exec.true ones, through the worker's own recorder, then stops as a kill would:
     * no last piece of samples.csv, no figures.
     *
     * @return samples.csv's text as the test writes it, field by field
     */
    private StringBuilder takeAndKill(long runId, String workerId, int measured) {
        RunRecorder recorder = new RunRecorder(runId, workerId, batches, runs, () -> false);
        StringBuilder csv = new StringBuilder("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry\n");
        Random random = new Random(runId);
        for (int i = 1; i <= 5; i++) {
            take(recorder, csv, new Sample("exec.noop", i, Phase.WARMUP, 5_000_000 + random.nextInt(1000), 0, true, null));
        }
        for (int i = 1; i <= measured; i++) {
            boolean ok = i % 1000 != 0;
            take(recorder, csv, new Sample("exec.noop", i, Phase.MEASURED, 200_000 + random.nextInt(800_000), 0, ok,
                    ok ? null : "agent said no"));
        }
        for (int i = 1; i <= 2; i++) {
            take(recorder, csv, new Sample("exec.true", i, Phase.MEASURED, 1_000_000 + i, 0, false, "exit 1"));
        }
        recorder.flush();
        return csv;
    }

    private static void take(RunRecorder recorder, StringBuilder csv, Sample s) {
        recorder.sample(s);
        csv.append(s.metric()).append(',').append(s.iteration()).append(',').append(s.phase() == Phase.WARMUP ? "warmup" : "measured")
                .append(',').append(s.ns()).append(",0,").append(s.ok()).append(',').append(s.error() == null ? "" : "\"" + s.error() + "\"")
                .append(",,,,").append(ExpectedChannel.of(s.metric())).append(",,,\n");
    }

    /** The run's stored figures, sorted samples and samples.csv against what the test computes from its rows. */
    private void assertFiguresOfStoredSamples(long runId, StringBuilder expectedCsv) throws Exception {
        long[] ns = measuredOk(runId, "exec.noop");
        assertThat(ns.length % 2).as("an odd n: one median").isEqualTo(1);
        long median = ns[ns.length / 2];
        List<MetricResult> figures = results.findByRunIdOrderByPositionAsc(runId);
        assertThat(figures).extracting(MetricResult::getMetric).containsExactly("exec.noop", "exec.true");
        MetricResult noop = figures.get(0);
        assertThat(noop.getN()).isEqualTo(ns.length);
        assertThat(noop.getP50Ns()).isEqualTo(median);
        assertThat(noop.getMinNs()).isEqualTo(ns[0]);
        assertThat(noop.getMaxNs()).isEqualTo(ns[ns.length - 1]);
        assertThat(noop.getWarmups()).isEqualTo(5);
        assertThat(noop.getFailures()).isEqualTo(failed(runId));
        // Every exec.true iteration failed: counts, and no figure.
        MetricResult exec = figures.get(1);
        assertThat(exec.getN()).isZero();
        assertThat(exec.getFailures()).isEqualTo(2);
        assertThat(exec.getP50Ns()).isNull();

        Run run = runs.findById(runId).orElseThrow();
        assertThat(run.isFiguresFromStoredSamples()).isTrue();
        assertThat(run.getSampleCount()).isEqualTo(count(runId));
        Map<String, long[]> sorted = sortedSamples.read(runId);
        assertThat(sorted).containsOnlyKeys("exec.noop");
        assertThat(sorted.get("exec.noop")).containsExactly(ns);

        // samples.csv is all stored pieces now, in order, covering every row; and it is the same text.
        List<Map<String, Object>> stored = jdbc.queryForList("select seq, last_id, row_count from sample_csv_piece where run_id = ? "
                + "order by seq", runId);
        assertThat(stored).extracting(p -> ((Number) p.get("seq")).intValue())
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, stored.size()).boxed().toList());
        assertThat(stored.stream().mapToLong(p -> ((Number) p.get("row_count")).longValue()).sum()).isEqualTo(count(runId));
        assertThat(((Number) stored.get(stored.size() - 1).get("last_id")).longValue())
                .isEqualTo(jdbc.queryForObject("select max(id) from sample where run_id = ?", Long.class, runId));
        HttpResponse<String> download = get("/api/runs/" + runId + "/samples.csv");
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).isEqualTo(expectedCsv.toString());
    }

    /** The run's measured, successful exec.noop times, ascending, read from its rows. */
    private long[] measuredOk(long runId, String metric) {
        long[] ns = jdbc.queryForList("select ns from sample where run_id = ? and metric = ? and phase = 'measured' and ok = true",
                Long.class, runId, metric).stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(ns);
        return ns;
    }

    private long failed(long runId) {
        return jdbc.queryForObject("select count(*) from sample where run_id = ? and metric = 'exec.noop' and phase = 'measured' "
                + "and ok = false", Long.class, runId);
    }

    private long count(long runId) {
        return jdbc.queryForObject("select count(*) from sample where run_id = ?", Long.class, runId);
    }
}
