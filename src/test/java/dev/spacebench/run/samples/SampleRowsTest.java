package dev.spacebench.run.samples;

import dev.spacebench.run.Run;
import dev.spacebench.run.RunRepository;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.plan.Plans;
import dev.spacebench.space.SpaceSpec;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two runs measured at the same time interleave their sample ids: each run's samples.csv and
 * figures hold its own samples only, in the order taken, however the rows are walked.
 */
class SampleRowsTest extends AppTestSupport {

    private static final String UNMADE = "kind-no-worker-makes";

    @Autowired
    RunRepository runs;
    @Autowired
    SampleRows rows;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void interleavedRunsEachStreamTheirOwnSamplesInOrder() throws Exception {
        SpaceSpec spec = new SpaceSpec(UNMADE, null, null);
        long a = runs.save(new Run(UNMADE, spec, Plans.quick(), 10, Instant.now())).getId();
        long b = runs.save(new Run(UNMADE, spec, Plans.quick(), 10, Instant.now())).getId();
        long empty = runs.save(new Run(UNMADE, spec, Plans.quick(), 10, Instant.now())).getId();
        // Ids far above what the sequence hands out in a test JVM, in blocks as two workers' pooled ids come.
        long base = 7_000_000_000L + a * 1000;
        sample(base + 1, b, "exec.noop", 1, "measured", 900, true, null);
        sample(base + 2, a, "exec.noop", 1, "warmup", 5000, true, null);
        sample(base + 3, a, "exec.noop", 1, "measured", 300, true, null);
        sample(base + 4, b, "exec.noop", 2, "measured", 100, true, null);
        sample(base + 5, b, "exec.noop", 3, "measured", 700, true, null);
        sample(base + 6, a, "exec.noop", 2, "measured", 200, true, null);
        sample(base + 7, a, "exec.true", 1, "measured", 150, true, null);
        sample(base + 8, b, "exec.noop", 4, "measured", 50, true, null);
        sample(base + 9, a, "exec.noop", 3, "measured", 999_999_999_999L, false, "agent lost: \"gone\"");
        sample(base + 10, a, "exec.noop", 4, "measured", 100, true, null);
        sample(base + 11, b, "exec.noop", 5, "measured", 1, true, null);

        HttpResponse<String> csv = get("/api/runs/" + a + "/samples.csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.body()).isEqualTo("""
                metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry
                exec.noop,1,warmup,5000,0,true,,,,,agent,,,
                exec.noop,1,measured,300,0,true,,,,,agent,,,
                exec.noop,2,measured,200,0,true,,,,,agent,,,
                exec.true,1,measured,150,0,true,,,,,agent,,,
                exec.noop,3,measured,999999999999,0,false,"agent lost: ""gone\""",,,,agent,,,
                exec.noop,4,measured,100,0,true,,,,,agent,,,
                """);
        assertThat(get("/api/runs/" + b + "/samples.csv").body().lines().skip(1).map(l -> l.split(",")[3]))
                .containsExactly("900", "100", "700", "50", "1");
        assertThat(get("/api/runs/" + empty + "/samples.csv").body()).isEqualTo("metric,iteration,phase,ns,bytes,ok,error,agent_ns,level,space_index,channel,block,seq,entry\n");

        assertThat(rows.measuredNs(a, "exec.noop")).containsExactly(100, 200, 300);
        assertThat(rows.measuredNs(a, "exec.true")).containsExactly(150);
        assertThat(rows.measuredNs(b, "exec.noop")).containsExactly(1, 50, 100, 700, 900);
        assertThat(rows.measuredNs(empty, "exec.noop")).isEmpty();
        Map<String, long[]> byMetric = rows.measuredNsByMetric(a);
        assertThat(byMetric).containsOnlyKeys("exec.noop", "exec.true");
        assertThat(byMetric.get("exec.noop")).containsExactly(100, 200, 300);
        assertThat(byMetric.get("exec.true")).containsExactly(150);
        assertThat(rows.measuredNsByMetric(b).get("exec.noop")).containsExactly(1, 50, 100, 700, 900);
        assertThat(rows.measuredNsByMetric(empty)).isEmpty();
    }

    private void sample(long id, long run, String metric, int iteration, String phase, long ns, boolean ok, String error) {
        jdbc.update("insert into sample (id, run_id, metric, iteration, phase, ns, bytes, ok, error) values (?, ?, ?, ?, ?, ?, 0, ?, ?)",
                id, run, metric, iteration, phase, ns, ok, error);
    }
}
