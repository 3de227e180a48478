package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.environment.Build;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON columns through their JPA converters, against the database itself: text written in the
 * format runs were stored in before the converters reads back typed, and what the converters write
 * is that same JSON.
 */
class JsonColumnsTest extends AppTestSupport {

    @Autowired
    RunRepository runs;
    @Autowired
    MetricResultRepository results;
    @Autowired
    JdbcTemplate jdbc;

    private final JsonMapper plain = JsonMapper.builder().build();

    @Test
    void storedTextReadsBackTypedAndTypedValuesAreStoredAsThatText() {
        long id = runs.save(new Run("process", new SpaceSpec("process", null, null),
                new Plan(new ExecPlan(List.of("true"), 1, 0, null), new FilePlan(List.of(), 0, null, null), null, null),
                1, Instant.now())).getId();
        // As the app stored them before: hand-written JSON text in the columns.
        jdbc.update("update run set space_spec = ?, plan = ?, build = ? where id = ?",
                "{\"kind\":\"process\",\"cpus\":2.0,\"memoryMiB\":64}",
                "{\"exec\":{\"metrics\":[\"noop\",\"sh_c\"],\"n\":7,\"warmups\":2},\"files\":{\"sizes\":[{\"bytes\":1024,\"n\":3}],\"warmups\":1}}",
                "{\"version\":\"0.0.9\",\"gitCommit\":\"abc1234\",\"gitDirty\":true,\"builtAt\":\"2026-11-30T10:00:00Z\"}", id);

        Run read = runs.findById(id).orElseThrow();
        assertThat(read.getSpaceSpec()).isEqualTo(new SpaceSpec("process", 2.0, 64L));
        assertThat(read.getPlan().exec().metrics()).containsExactly("noop", "sh_c");
        assertThat(read.getPlan().exec().n()).isEqualTo(7);
        assertThat(read.getPlan().files().sizes()).containsExactly(new FileSize(1024L, 3));
        assertThat(read.getBuild()).isEqualTo(new Build("0.0.9", "abc1234", true, "2026-11-30T10:00:00Z"));
        assertThat(read.getEnvironment()).isNull();

        read.setBuild(new Build("1.2.3", "def5678", false, "2026-12-01T09:00:00Z"));
        runs.save(read);
        JsonNode build = plain.readTree(jdbc.queryForObject("select build from run where id = ?", String.class, id));
        assertThat(build.get("version").asString()).isEqualTo("1.2.3");
        assertThat(build.get("gitCommit").asString()).isEqualTo("def5678");
        assertThat(build.get("gitDirty").asBoolean()).isFalse();
        JsonNode plan = plain.readTree(jdbc.queryForObject("select plan from run where id = ?", String.class, id));
        assertThat(plan.get("exec").get("n").asInt()).isEqualTo(7);
        assertThat(plan.get("files").get("sizes").get(0).get("bytes").asLong()).isEqualTo(1024);
    }

    @Test
    void intervalsKeepTheirOrderAndNoFiguresMeansNoText() {
        long runId = runs.save(new Run("process", new SpaceSpec("process", null, null),
                new Plan(new ExecPlan(List.of("true"), 1, 0, null), new FilePlan(List.of(), 0, null, null), null, null),
                1, Instant.now())).getId();
        PercentileInterval p50 = new PercentileInterval(90, 110, 3, 8, true, true, 0.96, 0.95);
        PercentileInterval p99 = new PercentileInterval(300, 500, 9, 10, true, false, 0.9, 0.95);
        MetricResult withFigures = results.save(new MetricResult(runId, "exec.true", 0, 0, null, 10, 0, 0,
                1L, 100L, 200L, 400L, 500L, 150.0, 20.0, new java.util.LinkedHashMap<>(Map.of("p50", p50)), null));
        MetricResult without = results.save(new MetricResult(runId, "exec.noop", 1, 0, null, 0, 0, 3,
                null, null, null, null, null, null, null, null, null));
        jdbc.update("update metric_result set intervals = ? where id = ?",
                "{\"p99\":{\"lowerNs\":300,\"upperNs\":500,\"lowerRank\":9,\"upperRank\":10,\"lowerBounded\":true,"
                        + "\"upperBounded\":false,\"coverage\":0.9,\"level\":0.95},"
                        + "\"p50\":{\"lowerNs\":90,\"upperNs\":110,\"lowerRank\":3,\"upperRank\":8,\"lowerBounded\":true,"
                        + "\"upperBounded\":true,\"coverage\":0.96,\"level\":0.95}}", withFigures.getId());

        assertThat(results.findById(withFigures.getId()).orElseThrow().getIntervals()).containsExactly(
                Map.entry("p99", p99), Map.entry("p50", p50));
        assertThat(results.findById(without.getId()).orElseThrow().getIntervals()).isEmpty();
        assertThat(jdbc.queryForObject("select intervals from metric_result where id = ?", String.class, without.getId())).isNull();
    }
}
