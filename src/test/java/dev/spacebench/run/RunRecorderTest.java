package dev.spacebench.run;

import dev.spacebench.measure.JvmBackgroundWork;
import dev.spacebench.run.samples.RunSample;
import dev.spacebench.run.samples.RunSampleRepository;
import dev.spacebench.run.samples.SampleBatches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The worker's recorder on the app's real database (H2, or PostgreSQL in the second surefire
 * pass): its batches are written with plain JDBC, the rows and ids the JPA repository wrote, and
 * before each metric's measured loop it writes what it holds, then waits for this JVM's own
 * background work. Expected values are computed here from the samples given, read back with SQL.
 */
class RunRecorderTest extends AppTestSupport {

    private static final String UNMADE = "kind-no-worker-makes";

    @Autowired
    RunRepository runs;
    @Autowired
    SampleBatches batches;
    @Autowired
    RunSampleRepository samples;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    EntityManagerFactory jpa;

    @Test
    void aBatchStoresEveryFieldAsGivenWithRisingIdsAndNoHibernateWork() {
        long id = claimedRun("worker-a");
        RunRecorder recorder = new RunRecorder(id, "worker-a", batches, runs, () -> false);
        List<Sample> given = new ArrayList<>();
        for (int i = 1; i <= 1234; i++) {
            boolean ok = i % 101 != 0;
            given.add(new Sample(i % 3 == 0 ? "exec.true" : "sweep.2.exec.noop", i, i <= 30 ? Phase.WARMUP : Phase.MEASURED,
                    1_000_000_000_000L + i, i % 7 == 0 ? (1L << 33) + i : 0, ok, ok ? null : "exit code 1; stderr: \"µ\", " + i,
                    i % 2 == 0 ? (long) i * 1000 : null, i % 5 == 0 ? 2 : null, i % 5 == 0 ? 1 + i % 2 : null,
                    i % 4 == 0 ? 1 + i % 30 : null, i % 4 == 0 ? (1L << 40) + i : null));
        }
        Statistics hibernate = jpa.unwrap(SessionFactory.class).getStatistics();
        hibernate.setStatisticsEnabled(true);
        // Per entity: the app's background work (heartbeat, claims) opens sessions of its own meanwhile.
        long inserts = hibernate.getEntityStatistics(RunSample.class.getName()).getInsertCount();
        given.forEach(recorder::sample); // two batches of 500 go in on the way
        recorder.flush();
        assertThat(hibernate.getEntityStatistics(RunSample.class.getName()).getInsertCount() - inserts)
                .as("samples inserted through Hibernate").isZero();

        List<String> stored = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        jdbc.query("select id, metric, iteration, phase, ns, bytes, ok, error, agent_ns, level, space_index, block, seq from sample "
                + "where run_id = ? order by id", rs -> {
                    ids.add(rs.getLong(1));
                    stored.add(rs.getString(2) + "|" + rs.getInt(3) + "|" + rs.getString(4) + "|" + rs.getLong(5) + "|" + rs.getLong(6)
                            + "|" + rs.getBoolean(7) + "|" + rs.getString(8) + "|" + rs.getObject(9) + "|" + rs.getObject(10) + "|"
                            + rs.getObject(11) + "|" + rs.getObject(12) + "|" + rs.getObject(13));
                }, id);
        List<String> expected = given.stream().map(s -> s.metric() + "|" + s.iteration() + "|" + (s.phase() == Phase.WARMUP ? "warmup" : "measured")
                + "|" + s.ns() + "|" + s.bytes() + "|" + s.ok() + "|" + s.error() + "|" + s.agentNs() + "|" + s.level() + "|"
                + s.spaceIndex() + "|" + s.block() + "|" + s.seq()).toList();
        assertThat(stored).as("in the order taken").containsExactlyElementsOf(expected);
        assertThat(ids).doesNotHaveDuplicates().allSatisfy(i -> assertThat(i).isPositive());
        assertThat(recorder.savedCount()).isEqualTo(1234);
    }

    @Test
    void batchesAndHibernatesPooledIdsShareTheSequenceWithoutCollisions() {
        long id = claimedRun("worker-a");
        RunRecorder recorder = new RunRecorder(id, "worker-a", batches, runs, () -> false);
        Statistics hibernate = jpa.unwrap(SessionFactory.class).getStatistics();
        hibernate.setStatisticsEnabled(true);
        long inserts = hibernate.getEntityStatistics(RunSample.class.getName()).getInsertCount();
        for (int round = 0; round < 3; round++) {
            // JPA's way, as a test or an older app of a fleet writes samples: Hibernate's pooled ids.
            List<RunSample> viaJpa = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                viaJpa.add(new RunSample(id, "jpa", i, "measured", 1, 0, true, null));
            }
            transactions.executeWithoutResult(tx -> samples.saveAll(viaJpa));
            for (int i = 0; i < 700; i++) {
                recorder.sample(new Sample("jdbc", i, Phase.MEASURED, 2, 0, true, null));
            }
            recorder.flush();
        }
        assertThat(jdbc.queryForObject("select count(distinct id) from sample where run_id = ?", Long.class, id)).isEqualTo(4200);
        // The statistic the test above relies on counts JPA's rows, and only those: 3 × 700.
        assertThat(hibernate.getEntityStatistics(RunSample.class.getName()).getInsertCount() - inserts).isEqualTo(2100);
        // The recorder's own rows rise in the order taken (samples.csv's pieces rely on it).
        List<Integer> iterations = jdbc.queryForList("select iteration from sample where run_id = ? and metric = 'jdbc' order by id",
                Integer.class, id);
        List<Integer> taken = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 700; i++) {
                taken.add(i);
            }
        }
        assertThat(iterations).containsExactlyElementsOf(taken);
    }

    @Test
    void beforeEachMeasuredLoopTheWarmUpsAreWrittenThenTheWaitLastsUntilTheJvmsCompilerThreadsAreIdle() throws Exception {
        long id = claimedRun("worker-a");
        RunRecorder recorder = new RunRecorder(id, "worker-a", batches, runs, () -> false);
        List<JvmBackgroundWork.Wait> waits = new ArrayList<>();
        Runnable wait = JvmBackgroundWork.beforeEachLoop(waits, Duration.ofMillis(50), Duration.ofSeconds(30));
        AtomicLong rowsWhenWaiting = new AtomicLong(-1);
        recorder.beforeMeasured(() -> {
            rowsWhenWaiting.set(jdbc.queryForObject("select count(*) from sample where run_id = ?", Long.class, id));
            wait.run();
        });
        for (int i = 1; i <= 7; i++) {
            recorder.sample(new Sample("exec.true", i, Phase.WARMUP, 3, 0, true, null));
        }
        // A real busy thread under a compiler thread's Linux name (the first 15 characters are what /proc shows).
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        Thread compiler = new Thread(() -> {
            running.countDown(); // the JVM names the Linux thread before run() starts
            long end = System.nanoTime() + 400_000_000L;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            done.set(true);
        }, "C2 CompilerThread-test");
        compiler.start();
        running.await();

        recorder.beforeMeasured("exec.true");

        assertThat(done).as("the wait returned while the compiler thread still worked").isTrue();
        assertThat(waits).hasSize(1);
        assertThat(waits.get(0).quiet()).isTrue();
        assertThat(rowsWhenWaiting).as("the warm-ups were written before the wait").hasValue(7);
        compiler.join();

        // 0: no wait, and the fact says so.
        List<JvmBackgroundWork.Wait> none = new ArrayList<>();
        JvmBackgroundWork.beforeEachLoop(none, Duration.ofMillis(50), Duration.ZERO).run();
        assertThat(none.get(0).waitedNs()).isZero();
        assertThat(JvmBackgroundWork.describeLoops(none, Duration.ZERO)).isEqualTo("not waited for (spacebench.space.quiet-before-loops=0)");
        assertThat(JvmBackgroundWork.describeLoops(List.of(new JvmBackgroundWork.Wait(120_000_000L, true),
                new JvmBackgroundWork.Wait(3_010_000_000L, false)), Duration.ofSeconds(3)))
                .isEqualTo("waited until idle, outside the timed loops: 2 metrics, 3.13 s in all, longest 3.01 s; 1 gave up after 3.00 s");
    }

    private long claimedRun(String worker) {
        long id = runs.save(new Run(UNMADE, new SpaceSpec(UNMADE, null, null), Plans.quick(), 10, Instant.now())).getId();
        assertThat(runs.claim(id, worker, Instant.now())).isEqualTo(1);
        return id;
    }
}
