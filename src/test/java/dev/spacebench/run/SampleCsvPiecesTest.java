package dev.spacebench.run;

import dev.spacebench.run.samples.SampleBatches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.measure.Phase;
import dev.spacebench.measure.Sample;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * samples.csv is the same text whether it comes from the pieces the worker stored as it went, from
 * the rows, or from both (pieces, then the rows after them), with another run's batches
 * interleaving ids. The expected text is written here field by field, not by the app's formatter.
 */
class SampleCsvPiecesTest extends AppTestSupport {

    private static final String UNMADE = "kind-no-worker-makes";

    @Autowired
    RunRepository runs;
    @Autowired
    SampleBatches batches;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void piecesRowsAndBothGiveTheSameSamplesCsv() throws Exception {
        long a = claimedRun();
        long b = claimedRun();
        RunRecorder recorder = new RunRecorder(a, "worker-a", batches, runs, () -> false);
        RunRecorder other = new RunRecorder(b, "worker-a", batches, runs, () -> false);
        StringBuilder expected = new StringBuilder("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry\n");
        int n = 20_000;
        for (int i = 1; i <= n; i++) {
            Sample s = sample(i);
            recorder.sample(s);
            expected.append(line(s));
            if (i % 1500 == 0) {
                // Another run's batch in between: the two runs' ids interleave.
                for (int j = 0; j < 500; j++) {
                    other.sample(new Sample("exec.true", j, Phase.MEASURED, 7, 0, true, null));
                }
            }
        }
        recorder.flush();
        other.flush();

        int stored = jdbc.queryForObject("select count(*) from sample_csv_piece where run_id = ?", Integer.class, a);
        assertThat(stored).as("pieces stored while the run went (about 900 KB of text)").isGreaterThanOrEqualTo(2);
        assertThat(csv(a)).as("pieces, then the rows after them").isEqualTo(expected.toString());

        recorder.sealCsv();
        assertThat(jdbc.queryForObject("select sum(row_count) from sample_csv_piece where run_id = ?", Long.class, a))
                .as("rows in pieces once sealed").isEqualTo(n);
        assertThat(csv(a)).as("pieces only").isEqualTo(expected.toString());

        jdbc.update("delete from sample_csv_piece where run_id = ? and seq > 1", a);
        assertThat(csv(a)).as("the first piece, then rows").isEqualTo(expected.toString());
        jdbc.update("delete from sample_csv_piece where run_id = ?", a);
        assertThat(csv(a)).as("rows only").isEqualTo(expected.toString());
        assertThat(csv(b)).as("the other run").startsWith("metric,").contains("\nexec.true,499,measured,7,0,true,,,,,agent,,,\n")
                .doesNotContain("exec.noop");
    }

    /** Varied on purpose: warm-ups, failures with quotes, commas and non-ASCII text, agent times, sweep columns, big values. */
    private static Sample sample(int i) {
        Phase phase = i <= 100 ? Phase.WARMUP : Phase.MEASURED;
        boolean ok = i % 997 != 0;
        String error = ok ? null : "agent said \"no\", then µs " + i;
        Long agent = i % 2 == 0 ? (long) i * 3 : null;
        Integer level = i % 5 == 0 ? 4 : null;
        Integer space = level == null ? null : 1 + i % 4;
        long ns = i % 333 == 0 ? 9_000_000_000_000L + i : 250_000 + (i * 7919L) % 100_000;
        return new Sample(i % 7 == 0 ? "files.1048576.up" : "exec.noop", i, phase, ns, i % 7 == 0 ? 1_048_576 : 0, ok, error,
                agent, level, space);
    }

    private static String line(Sample s) {
        String error = s.error() == null ? "" : "\"" + s.error().replace("\"", "\"\"") + "\"";
        return s.metric() + "," + s.iteration() + "," + s.phase().wireName() + "," + s.ns() + "," + s.bytes() + "," + s.ok() + ","
                + error + "," + text(s.agentNs()) + "," + text(s.level()) + "," + text(s.spaceIndex()) + "," + ExpectedChannel.of(s.metric())
                + "," + text(s.block()) + "," + text(s.seq()) + ",\n";
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private String csv(long runId) throws Exception {
        HttpResponse<String> response = get("/api/runs/" + runId + "/samples.csv");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private long claimedRun() {
        long id = runs.save(new Run(UNMADE, new SpaceSpec(UNMADE, null, null), Plans.quick(), 10, Instant.now())).getId();
        assertThat(runs.claim(id, "worker-a", Instant.now())).isEqualTo(1);
        return id;
    }
}
