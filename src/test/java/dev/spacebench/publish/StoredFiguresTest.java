package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Pages and plots read what is stored when a metric finishes, never the samples: with a finished
 * run's samples gone from the database, its plot and its page's figures are what they were, and
 * drawing them runs no query on its samples.
 */
class StoredFiguresTest extends AppTestSupport {

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void thePlotAndThePageNeedNoSample() throws Exception {
        HttpResponse<String> created = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],"
                + "\"n\":40,\"warmups\":2,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");
        String plot = get("/api/runs/" + id + "/plots/exec.noop.svg").body();
        String page = get("/runs/" + id).body();
        assertThat(plot).contains("(n=40)");

        // ready, its three parts (creation, agent start, first Ping), 2 warm-ups, 40 round trips, delete
        assertThat(jdbc.update("delete from sample where run_id = ?", id)).isEqualTo(1 + 3 + 2 + 40 + 1);

        // H2 lists every statement it runs from here on.
        jdbc.execute("SET QUERY_STATISTICS FALSE");
        jdbc.execute("SET QUERY_STATISTICS TRUE");
        HttpResponse<String> again = get("/api/runs/" + id + "/plots/exec.noop.svg");
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(plot);
        String pageAgain = get("/runs/" + id).body();
        String figures = page.substring(page.indexOf("<svg"), page.lastIndexOf("</svg>"));
        assertThat(pageAgain).contains(figures);
        // Not even for the floor the plan skipped (its plot series looked for samples it has none of).
        assertThat(jdbc.queryForList("select sql_statement from information_schema.query_statistics", String.class))
                .isNotEmpty().noneMatch(sql -> sql.toLowerCase().contains("from sample"));
        jdbc.execute("SET QUERY_STATISTICS FALSE");
    }
}
