package dev.spacebench.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The plan's order, blockSize and seed over real HTTP: bad values name the field; a new run stores its seed. */
class PlanOrderApiTest extends AppTestSupport {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown order          | {"plan":{"order":"shuffled"}}                                      | plan.order     | must be one of [sequential, interleaved], was 'shuffled'
            block size zero        | {"plan":{"blockSize":0}}                                           | plan.blockSize | must be from 1 to 300 (exec.n), was 0
            block size above n     | {"plan":{"exec":{"n":50},"blockSize":51}}                          | plan.blockSize | must be from 1 to 50 (exec.n), was 51
            more blocks than floor | {"plan":{"exec":{"n":100},"floor":{"n":5},"blockSize":10}}         | plan.blockSize | must give at most floor.n (5) blocks
            a fraction for size    | {"plan":{"blockSize":1.5}}                                         | plan.blockSize | must be a whole number from 1 to exec.n, was
            a fraction for seed    | {"plan":{"seed":0.5}}                                              | plan.seed      | must be a whole number from -9223372036854775808
            """)
    void badOrderFieldsAreAProblemNamingTheField(String what, String body, String field, String message) throws Exception {
        HttpResponse<String> response = post("/api/runs", body);
        assertThat(response.statusCode()).as(what + ": " + response.body()).isEqualTo(400);
        JsonNode problem = json(response);
        assertThat(problem.get("errors").get(0).get("field").asString()).as(response.body()).isEqualTo(field);
        assertThat(problem.get("errors").get(0).get("message").asString()).contains(message);
    }

    @Test
    void aNewRunIsInterleavedInBlocksOfTenWithASeedDrawnAndStoredAndAGivenSeedKept() throws Exception {
        String tiny = "\"exec\":{\"metrics\":[\"noop\"],\"n\":20,\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},"
                + "\"floor\":{\"enabled\":false}";
        HttpResponse<String> drawn = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{" + tiny + "}}");
        assertThat(drawn.statusCode()).as(drawn.body()).isEqualTo(201);
        JsonNode plan = json(drawn).get("plan");
        assertThat(plan.get("order").asString()).isEqualTo("interleaved");
        assertThat(plan.get("blockSize").asInt()).isEqualTo(10);
        assertThat(plan.get("seed").isIntegralNumber()).as(plan.toString()).isTrue();

        HttpResponse<String> given = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{" + tiny
                + ",\"order\":\"sequential\",\"seed\":-77}}");
        assertThat(given.statusCode()).as(given.body()).isEqualTo(201);
        long id = json(given).get("id").asLong();
        JsonNode stored = json(get("/api/runs/" + id)).get("plan");
        assertThat(stored.get("order").asString()).isEqualTo("sequential");
        assertThat(stored.get("seed").asLong()).isEqualTo(-77);
        awaitFinished(json(drawn).get("id").asLong(), Duration.ofSeconds(120));
        awaitFinished(id, Duration.ofSeconds(120));
    }
}
