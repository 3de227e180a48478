package dev.spacebench.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.ChildApp;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;

/**
 * The app on a real PostgreSQL server (the {@code postgres} profile's driver and migrations): a
 * small run through REST, then the samples counted in the database itself, not through the app.
 * <p>
 * It runs in pom.xml's PostgreSQL pass, on the app that pass's other classes share ({@link
 * AppTestSupport} with {@value AppTestSupport#DATABASE}{@code =postgres}): an app context of its
 * own in the H2 pass cost the suite a second start, its kind checks and a database migrated anew.
 */
@ExtendWith(PostgresEndToEndTest.OnPostgres.class)
class PostgresEndToEndTest extends AppTestSupport {

    /** Elsewhere (the H2 pass, or {@code -Dtest=} without the property) it says where it runs. */
    static final class OnPostgres implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return "postgres".equals(System.getProperty(DATABASE)) ? ConditionEvaluationResult.enabled("the PostgreSQL pass")
                    : ConditionEvaluationResult.disabled("runs in the PostgreSQL pass (-D" + DATABASE + "=postgres, as pom.xml's "
                            + "postgres execution sets it)");
        }
    }

    @Test
    void aRunIsMeasuredAndEverySampleIsInPostgres() throws Exception {
        HttpResponse<String> created = post("/api/runs", """
                {"space": {"kind": "process"},
                 "plan": {"exec": {"metrics": ["noop", "true"], "n": 40, "warmups": 2, "agentWarmupCalls": 10},
                          "files": {"sizes": [{"bytes": 1048576, "n": 2}, {"bytes": 3145728, "n": 2}], "warmups": 0},
                          "floor": {"enabled": false}}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofMinutes(2));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        try (Connection c = POSTGRES.connect()) {
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
            // 2 × (40 measured + 2 warm-ups) exec, 2 sizes × 2 directions × 2, one ready, one delete
            assertThat(ChildApp.count(c, "SELECT count(*) FROM sample WHERE run_id = ?", id)).isEqualTo(2 * 42 + 8 + 2 + 3); // + ready's three parts
            assertThat(ChildApp.count(c, "SELECT count(*) FROM sample WHERE run_id = ? AND metric = 'exec.noop' AND phase = 'measured'", id))
                    .isEqualTo(40);
            assertThat(ChildApp.count(c, "SELECT count(*) FROM run WHERE id = ? AND status = 'SUCCEEDED'", id)).isEqualTo(1);
        }
        // The page reads back from PostgreSQL too.
        assertThat(get("/runs/" + id).statusCode()).isEqualTo(200);
    }
}
