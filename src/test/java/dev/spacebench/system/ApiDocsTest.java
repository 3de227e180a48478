package dev.spacebench.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.run.samples.SampleCsv;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * /v3/api-docs as Swagger UI reads it: the API token is a bearer scheme that the state-changing
 * operations require (so Swagger UI shows "Authorize" and sends it), and the samples.csv
 * description names the columns a real samples.csv of this app has.
 */
class ApiDocsTest extends AppTestSupport {

    private static final String TINY_RUN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":3,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @Test
    void theTokenIsABearerSchemeOnEveryStateChangeAndOnNoRead() throws Exception {
        JsonNode docs = json(get("/v3/api-docs"));
        JsonNode schemes = docs.path("components").path("securitySchemes");
        List<String> bearer = new ArrayList<>();
        schemes.properties().forEach(e -> {
            if (e.getValue().path("type").asString().equals("http") && e.getValue().path("scheme").asString().equalsIgnoreCase("bearer")) {
                bearer.add(e.getKey());
            }
        });
        assertThat(bearer).as("bearer schemes in " + schemes).hasSize(1);
        String scheme = bearer.get(0);

        assertThat(requires(docs.path("paths").path("/api/runs").path("post"), scheme)).as("POST /api/runs").isTrue();
        assertThat(requires(docs.path("paths").path("/api/runs").path("get"), scheme)).as("GET /api/runs (reads are open on loopback)").isFalse();
        int changes = 0;
        for (Map.Entry<String, JsonNode> path : docs.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                boolean change = List.of("post", "put", "patch", "delete").contains(operation.getKey());
                assertThat(requires(operation.getValue(), scheme)).as(operation.getKey() + " " + path.getKey()).isEqualTo(change);
                changes += change ? 1 : 0;
            }
        }
        assertThat(changes).as("state-changing operations").isGreaterThan(5);
    }

    @Test
    void theSamplesCsvDescriptionNamesEveryColumnOfARealSamplesCsv() throws Exception {
        long id = json(post("/api/runs", TINY_RUN)).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofSeconds(120)).get("status").asString()).isEqualTo("SUCCEEDED");
        String header = get("/api/runs/" + id + "/samples.csv").body().lines().findFirst().orElseThrow();
        List<String> columns = List.of(header.split(","));
        assertThat(columns).hasSizeGreaterThanOrEqualTo(10);

        assertThat(samplesCsvColumnsDescribed()).isEqualTo(columns);
    }

    @Test
    void theSamplesCsvDescriptionNamesEveryColumnTheWritersWrite() throws Exception {
        // The stored columns, then channel: written from each row's metric id, stored nowhere.
        List<String> written = new ArrayList<>(Arrays.stream(SampleCsv.Column.values()).map(SampleCsv.Column::columnName).toList());
        written.add("channel");
        assertThat(samplesCsvColumnsDescribed()).isEqualTo(written);
    }

    /** The columns the one operation whose text says "samples.csv (…: a,b,c)" lists. */
    private List<String> samplesCsvColumnsDescribed() throws Exception {
        List<String> descriptions = new ArrayList<>();
        json(get("/v3/api-docs")).path("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
            String text = op.getValue().path("summary").asString("") + " " + op.getValue().path("description").asString("");
            if (text.contains("samples.csv (")) {
                descriptions.add(text);
            }
        }));
        assertThat(descriptions).hasSize(1);
        String described = descriptions.get(0);
        String listed = described.substring(described.indexOf("samples.csv (") + "samples.csv (".length(), described.indexOf(')',
                described.indexOf("samples.csv (")));
        return List.of(listed.substring(listed.lastIndexOf(' ') + 1).split(","));
    }

    private static boolean requires(JsonNode operation, String scheme) {
        assertThat(operation.isMissingNode()).as("operation exists").isFalse();
        for (JsonNode requirement : operation.path("security")) {
            if (requirement.has(scheme)) {
                return true;
            }
        }
        return false;
    }
}
