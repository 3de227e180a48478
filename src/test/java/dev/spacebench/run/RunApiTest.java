package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The runs API over real HTTP: bad input, unknown ids, cancel. */
class RunApiTest extends AppTestSupport {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown kind            | {"space":{"kind":"teleport"}}                                   | space.kind                 | must be one of [attach, command, container, process, sandbox, vm]
            n zero                  | {"plan":{"exec":{"n":0}}}                                       | plan.exec.n                | must be from 1 to 1000000, was 0
            n too big               | {"plan":{"exec":{"n":1000001}}}                                 | plan.exec.n                | must be from 1 to 1000000, was 1000001
            negative warm-ups       | {"plan":{"exec":{"warmups":-1}}}                                | plan.exec.warmups          | must be from 0 to 10000, was -1
            size zero               | {"plan":{"files":{"sizes":[{"bytes":0,"n":1}]}}}                | plan.files.sizes[0].bytes  | must be from 1 to 1073741824
            size over the maximum   | {"plan":{"files":{"sizes":[{"bytes":1073741825,"n":1}]}}}       | plan.files.sizes[0].bytes  | must be from 1 to 1073741824
            nothing to measure      | {"plan":{"exec":{"metrics":[]},"files":{"sizes":[]}}}           | plan                       | has nothing to measure
            unknown metric          | {"plan":{"exec":{"metrics":["ls"]}}}                            | plan.exec.metrics[0]       | must be one of [noop, true, sh_c]
            misspelt field          | {"plan":{"exec":{"nn":5}}}                                      | plan.exec.nn               | is not a known field; known here: [
            wrong type              | {"plan":{"exec":{"n":"many"}}}                                  | plan.exec.n                | must be a whole number
            attach without target   | {"space":{"kind":"attach","token":"t"}}                          | space.target               | the attach kind needs space.target
            attach off loopback     | {"space":{"kind":"attach","target":"10.1.2.3:7000","token":"t"}} | space.target               | not on a loopback address
            malformed JSON          | {"plan":                                                        | body                       | is not valid JSON
            a fraction for n        | {"plan":{"exec":{"n":1.5}}}                                     | plan.exec.n                | must be a whole number from 1 to 1000000, was
            n past any integer      | {"plan":{"exec":{"n":100000000000000000000}}}                   | plan.exec.n                | must be a whole number from 1 to 1000000, was
            a fraction for bytes    | {"plan":{"files":{"sizes":[{"bytes":1.5,"n":1}]}}}              | plan.files.sizes[0].bytes  | must be a whole number from 1 to 1073741824, was
            target on process       | {"space":{"kind":"process","target":"127.0.0.1:1"}}              | space.target               | does not apply to kind
            cpus on attach          | {"space":{"kind":"attach","target":"127.0.0.1:1","token":"t","cpus":1}} | space.cpus         | does not apply to kind
            a JSON array            | [{"space":{"kind":"process"}}]                                  | body                       | must be a JSON object
            """)
    void badInputIsAProblemNamingTheField(String what, String body, String field, String message) throws Exception {
        HttpResponse<String> response = post("/api/runs", body);
        assertThat(response.statusCode()).as(what + ": " + response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo(field);
        assertThat(problem.get("errors").get(0).get("message").asString()).contains(message);
        assertThat(problem.get("detail").asString()).contains(field);
    }

    @Test
    void anEmptyBodyIsRefusedNotAFullRun() throws Exception {
        HttpResponse<String> response = post("/api/runs", "");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("errors").get(0).get("field").asString()).isEqualTo("body");
        assertThat(json(response).get("errors").get(0).get("message").asString()).startsWith("is required");
    }

    @Test
    void unknownRunsAre404Problems() throws Exception {
        for (String path : new String[] {"/api/runs/987654", "/api/runs/987654/result.json", "/api/runs/987654/samples.csv",
                "/api/runs/987654/page.md"}) {
            HttpResponse<String> response = get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(json(response).get("errors").get(0).get("field").asString()).isEqualTo("id");
            assertThat(json(response).get("detail").asString()).contains("no run with id 987654");
        }
        assertThat(post("/api/runs/987654/cancel", "").statusCode()).isEqualTo(404);
        HttpResponse<String> notANumber = get("/api/runs/abc");
        assertThat(notANumber.statusCode()).isEqualTo(400);
        assertThat(json(notANumber).get("errors").get(0).get("field").asString()).isEqualTo("id");
        HttpResponse<String> badPage = get("/api/runs?size=0");
        assertThat(badPage.statusCode()).isEqualTo(400);
        assertThat(json(badPage).get("errors").get(0).get("field").asString()).isEqualTo("size");
    }

    @Test
    void cancellingARunningRunKeepsItsSamplesAndDeletesItsSpace() throws Exception {
        // Enough exec round trips to still be running when the cancel arrives.
        HttpResponse<String> created = post("/api/runs",
                "{\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,\"warmups\":0},\"files\":{\"sizes\":[]},"
                        + "\"floor\":{\"enabled\":false}}}");
        assertThat(created.statusCode()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        awaitStatus(id, "RUNNING", Duration.ofSeconds(60));
        // Wait for measured samples to flow before cancelling.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (json(get("/api/runs/" + id)).get("progress").get("done").asLong() < 50 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        HttpResponse<String> cancel = post("/api/runs/" + id + "/cancel", "");
        assertThat(cancel.statusCode()).isEqualTo(200);
        assertThat(json(cancel).get("cancelRequested").asBoolean()).isTrue();

        JsonNode run = awaitFinished(id, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("CANCELLED");
        assertThat(run.get("failureReason").asString()).isEqualTo("cancelled by request");
        JsonNode noop = null;
        for (JsonNode r : run.get("results")) {
            if (r.get("metric").asString().equals("exec.noop")) {
                noop = r;
            }
        }
        assertThat(noop).as("figures from the samples taken before the cancel").isNotNull();
        assertThat(noop.get("n").asInt()).isGreaterThanOrEqualTo(50);
        assertThat(get("/api/runs/" + id + "/samples.csv").body().lines().count()).isGreaterThan(50);
        try (Stream<java.nio.file.Path> left = Files.list(SPACES)) {
            assertThat(left.toList()).isEmpty();
        }

        HttpResponse<String> again = post("/api/runs/" + id + "/cancel", "");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(json(again).get("detail").asString()).contains("already finished (CANCELLED)");
    }

    @Test
    void listIsNewestFirstAndPaged() throws Exception {
        String tiny = "{\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1,\"warmups\":0},\"files\":{\"sizes\":[]},"
                + "\"floor\":{\"enabled\":false}}}";
        long a = json(post("/api/runs", tiny)).get("id").asLong();
        long b = json(post("/api/runs", tiny)).get("id").asLong();
        JsonNode page = json(get("/api/runs?page=0&size=2"));
        assertThat(page.get("content").get(0).get("id").asLong()).isEqualTo(b);
        assertThat(page.get("content").get(1).get("id").asLong()).isEqualTo(a);
        assertThat(page.get("size").asInt()).isEqualTo(2);
        awaitFinished(a, Duration.ofSeconds(60));
        awaitFinished(b, Duration.ofSeconds(60));
    }
}
