package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Requests built to break the app (huge strings and lists, a page past any offset, fields that do
 * not apply): each answers 400 (413 for an oversized body) problem+json naming the field and the
 * limit, with no exception class and no SQL in the body.
 */
class BadInputTest extends AppTestSupport {

    @Test
    void aTenMegabyteTokenIsRefusedByItsLimit() throws Exception {
        String token = "x".repeat(10 << 20);
        HttpResponse<String> response = post("/api/runs", "{\"space\":{\"kind\":\"attach\",\"target\":\"127.0.0.1:1\",\"token\":\""
                + token + "\"}}");
        assertProblem(response, 400, "space.token", "must be at most 1024 characters, was 10485760");
        assertThat(response.body().length()).isLessThan(4096);
    }

    @Test
    void aHundredThousandFileSizesAreRefusedByTheListsLimit() throws Exception {
        String sizes = IntStream.range(0, 100_000).mapToObj(i -> "{\"bytes\":" + (i + 1) + ",\"n\":1}")
                .collect(Collectors.joining(","));
        HttpResponse<String> response = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"files\":{\"sizes\":[" + sizes + "]}}}");
        assertProblem(response, 400, "plan.files.sizes", "must have at most 100 entries, had 100000");
        assertThat(json(response).get("errors")).hasSize(1);

        String metrics = IntStream.range(0, 17).mapToObj(i -> "\"noop\"").collect(Collectors.joining(","));
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[" + metrics + "]}}}"),
                400, "plan.exec.metrics", "must have at most 16 entries");
    }

    @Test
    void aPlanOverTheSamplesARunMayTakeIsRefusedNamingThePlanAndTheLimit() throws Exception {
        // Worked out by hand: exec 2 metrics × (1,000,000 n + 1,000 warm-ups) = 2,002,000;
        // files 2 sizes × 2 transfers × (1,000,000 n + 5 warm-ups) = 4,000,020;
        // floor 1 timer + 4 loops × (500,000 n + 100 warm-ups) = 2,000,401; 1 Space's ready and delete = 2.
        // 8,002,423 in all: 2,423 over the 8,000,000 a run may take.
        String plan = "{\"exec\":{\"metrics\":[\"noop\",\"true\"],\"n\":1000000,\"warmups\":1000},"
                + "\"files\":{\"sizes\":[{\"bytes\":1024,\"n\":1000000},{\"bytes\":2048,\"n\":1000000}],\"warmups\":5},"
                + "\"floor\":{\"enabled\":true,\"n\":500000,\"warmups\":100}}";
        HttpResponse<String> response = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":" + plan + "}");
        assertProblem(response, 400, "plan", "would take 8002423 samples and a run may take at most 8000000");
        assertThat(json(response).get("errors")).hasSize(1);
    }

    @Test
    void aPagePastAnyOffsetIsRefused() throws Exception {
        assertProblem(get("/api/runs?page=2147483647&size=200"), 400, "page", "must be from 0 to 1000000, was 2147483647");
        assertThat(get("/api/runs?page=1000000&size=200").statusCode()).isEqualTo(200);
    }

    @Test
    void aBodyOverSixteenMebibytesIsRefusedWhetherItsLengthIsDeclaredOrNot() throws Exception {
        byte[] body = ("{\"space\":{\"kind\":\"process\",\"token\":\"" + "x".repeat(17 << 20) + "\"}}").getBytes();
        HttpResponse<String> declared = http.send(withToken(HttpRequest.newBuilder(uri("/api/runs"))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertProblem(declared, 413, "body", "must be at most 16777216 bytes");
        HttpResponse<String> chunked = http.send(withToken(HttpRequest.newBuilder(uri("/api/runs"))).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertProblem(chunked, 413, "body", "must be at most 16777216 bytes");
    }

    @Test
    void numbersOutOfTheirTypeOrFractionsNameTheFieldsRange() throws Exception {
        assertProblem(post("/api/runs", "{\"plan\":{\"exec\":{\"n\":1.5}}}"), 400, "plan.exec.n",
                "must be a whole number from 1 to 1000000, was '1.5'");
        assertProblem(post("/api/runs", "{\"plan\":{\"exec\":{\"n\":100000000000000000000}}}"), 400, "plan.exec.n",
                "must be a whole number from 1 to 1000000, was '100000000000000000000'");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\",\"memoryMiB\":99999999999999999999}}"), 400,
                "space.memoryMiB", "must be a whole number from 16 to 16777216");
        assertProblem(post("/api/runs", "[1, 2]"), 400, "body", "must be a JSON object");
    }

    @Test
    void fieldsThatDoNotApplyToTheKindAreRefusedNamingTheKindsTheyApplyTo() throws Exception {
        HttpResponse<String> response = post("/api/runs", "{\"space\":{\"kind\":\"process\",\"target\":\"127.0.0.1:1\",\"token\":\"t\"}}");
        assertProblem(response, 400, "space.target", "does not apply to kind 'process'; it applies to [attach]");
        assertThat(json(response).get("errors").get(1).get("field").asString()).isEqualTo("space.token");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"attach\",\"target\":\"127.0.0.1:1\",\"token\":\"t\",\"memoryMiB\":64}}"),
                400, "space.memoryMiB", "does not apply to kind 'attach'");
    }

    @Test
    void anUnknownKindInTheRunsFilterIsRefusedLikeAnUnknownStatus() throws Exception {
        HttpResponse<String> response = get("/api/runs?kind=zzz");
        assertProblem(response, 400, "kind", "must be one of [");
        String message = json(response).get("errors").get(0).get("message").asString();
        assertThat(message).contains("process").contains("sandbox").endsWith("was 'zzz'");
    }

    @Test
    void aBaselinesLabelAndAnImportsMetricsHaveLimits() throws Exception {
        assertProblem(post("/api/baselines", "{\"name\":\"long-label\",\"runId\":1,\"label\":\"" + "l".repeat(501) + "\"}"),
                400, "label", "must be at most 500 characters, was 501");
        String metrics = IntStream.range(0, 201).mapToObj(i -> "{\"metric\":\"m" + i + "\",\"p50Ns\":1}").collect(Collectors.joining(","));
        assertProblem(post("/api/baselines/import?name=many-metrics", "{\"schema\":\"spacebench.result/v1\",\"metrics\":[" + metrics + "]}"),
                400, "body.metrics", "must have at most 200 entries, had 201");
        HttpResponse<String> hugeName = get("/api/baselines/" + "n".repeat(3000));
        assertThat(hugeName.statusCode()).isEqualTo(404);
        assertThat(json(hugeName).get("errors").get(0).get("message").asString()).hasSizeLessThan(200);
    }

    @Test
    void browsersGetAnHtmlPageForPagesAndScriptsKeepProblemJson() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri("/runs/999999")).header("Accept",
                "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(404);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.body()).contains("<h1>404 Not Found</h1>").contains("no run with id 999999").doesNotContain("\"status\"");

        HttpResponse<String> badId = http.send(HttpRequest.newBuilder(uri("/runs/abc")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.body()).contains("<h1>400 Bad Request</h1>").contains("was &#39;abc&#39;");

        HttpResponse<String> nothing = http.send(HttpRequest.newBuilder(uri("/no/such/page")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(nothing.statusCode()).isEqualTo(404);
        assertThat(nothing.body()).contains("<h1>404 Not Found</h1>");

        HttpResponse<String> api = http.send(HttpRequest.newBuilder(uri("/api/runs/999999")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(api.statusCode()).isEqualTo(404);
        assertThat(json(api).get("errors").get(0).get("field").asString()).isEqualTo("id");
        assertProblem(get("/runs/999999"), 404, "id", "no run with id 999999");
    }

    private static void assertProblem(HttpResponse<String> response, int status, String field, String message) {
        assertThat(response.statusCode()).as(response.body().substring(0, Math.min(2000, response.body().length()))).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json(response);
        List<String> fields = problem.get("errors").findValuesAsString("field");
        assertThat(fields).as(response.body()).contains(field);
        JsonNode error = problem.get("errors").get(fields.indexOf(field));
        assertThat(error.get("message").asString()).contains(message);
        assertThat(response.body()).doesNotContainIgnoringCase("exception").doesNotContainIgnoringCase("insert into")
                .doesNotContainIgnoringCase("sql").doesNotContain("dev.spacebench");
    }
}
