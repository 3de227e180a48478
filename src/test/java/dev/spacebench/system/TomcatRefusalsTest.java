package dev.spacebench.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What Tomcat refuses before Spring sees it (so MockMvc never would): over real HTTP each answers
 * problem+json naming the path under /api/, and the pages keep Tomcat's HTML page.
 */
class TomcatRefusalsTest extends AppTestSupport {

    private static final String ENCODED_SLASH = "must not contain an encoded '/' or '\\' (%2F, %5C)";

    @Test
    void anEncodedSlashInAnApiPathIsProblemJsonNamingThePath() throws Exception {
        assertRefused(get("/api/baselines/a%2Fb"), "path", ENCODED_SLASH);
        assertRefused(delete("/api/baselines/a%2Fb"), "path", ENCODED_SLASH);
        assertRefused(get("/api/benchmarks/a%2Fb"), "path", ENCODED_SLASH);
        assertRefused(delete("/api/benchmarks/a%2Fb"), "path", ENCODED_SLASH);
        assertRefused(get("/api/runs/1/hlog/exec%2Fnoop.hlog"), "path", ENCODED_SLASH);
        assertRefused(get("/api/runs/1/hlog/exec%5cnoop.hlog"), "path", ENCODED_SLASH);
        HttpResponse<String> one = get("/api/baselines/a%2Fb");
        assertThat(json(one).get("instance").asString()).isEqualTo("/api/baselines/a%2Fb");
    }

    @Test
    void aTenThousandCharacterPathIsProblemJsonNamingThePathWithoutRepeatingIt() throws Exception {
        HttpResponse<String> response = get("/api/runs/" + "x".repeat(10_000));
        assertRefused(response, "path", "is too long: the request line and headers may be at most server.max-http-request-header-size");
        assertThat(response.body()).hasSizeLessThan(1000).doesNotContain("xxxxxxxxxx");
    }

    @Test
    void headersOverTheLimitAreNamedAsHeaders() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/api/runs")).header("X-Padding", "y".repeat(9000))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertRefused(response, "headers", "are too large");
    }

    @Test
    void aCharacterThatMustBeEncodedIsProblemJson() throws Exception {
        // Java's HttpClient will not send a '|' unencoded; a script's raw socket will.
        String answer = raw("GET /api/runs/a|b HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(answer).containsIgnoringCase("Content-Type: application/problem+json");
        JsonNode problem = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("path");
        assertThat(problem.get("errors").get(0).get("message").asString()).contains("must be percent-encoded");
    }

    @Test
    void whatSpringSecuritysFirewallRefusesIsProblemJsonToo() throws Exception {
        assertRefused(get("/api/runs;x=1"), "path", "was refused: the URL contained a potentially malicious String \";\"");
        assertRefused(get("/api//runs"), "path", "was refused: the URL contained a potentially malicious String \"//\"");
        assertRefused(get("/api/baselines/a%252Fb"), "path", "was refused: the URL contained a potentially malicious String \"%25\"");
    }

    @Test
    void pagesKeepAnHtmlAnswer() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri("/runs/a%2Fb")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    }

    private static void assertRefused(HttpResponse<String> response, String field, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).as(response.body())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo(field);
        assertThat(problem.get("errors").get(0).get("message").asString()).contains(message);
    }
}
