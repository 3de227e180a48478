package dev.spacebench.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.BrowserSession;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A dashboard session's form posts are taken only from this app's own pages: a page elsewhere
 * that learnt the session's {@code _csrf} value is refused by its {@code Origin} (or, without one,
 * its {@code Referer}); the session cookie is {@code SameSite=Strict}. A script with the API token
 * sends neither header and keeps working.
 */
class OriginCheckTest extends AppTestSupport {

    /** A run that does not exist: a post let through is answered 404, one refused 403. */
    private static final String CANCEL = "/runs/987654321/cancel";

    @Test
    void theSessionCookieIsSameSiteStrict() throws Exception {
        HttpResponse<String> unlocked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri("/unlock?code=" + unlockCodes.issue()))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unlocked.headers().allValues("Set-Cookie")).as("the unlock's cookies").anySatisfy(cookie ->
                assertThat(cookie).startsWith("JSESSIONID=").containsIgnoringCase("SameSite=Strict"));
    }

    @Test
    void aFormPostFromAnotherOriginIsRefusedEvenWithTheCsrfToken() throws Exception {
        BrowserSession browser = unlockedBrowser();
        String own = "http://127.0.0.1:" + port;
        Map<String, String> form = Map.of("_csrf", browser.csrf("/"));

        HttpResponse<String> foreign = browser.post(CANCEL, form, Map.of("Origin", "https://attacker.example"));
        assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
        assertThat(foreign.body()).contains("Origin 'https://attacker.example'", "not this app's own origin");
        HttpResponse<String> otherPort = browser.post(CANCEL, form, Map.of("Origin", "http://127.0.0.1:1"));
        assertThat(otherPort.statusCode()).as("another port is another origin").isEqualTo(403);
        HttpResponse<String> opaque = browser.post(CANCEL, form, Map.of("Origin", "null"));
        assertThat(opaque.statusCode()).as("Origin: null (a sandboxed frame)").isEqualTo(403);
        HttpResponse<String> referred = browser.post(CANCEL, form, Map.of("Referer", "https://attacker.example/page"));
        assertThat(referred.statusCode()).as("no Origin, a foreign Referer").isEqualTo(403);

        assertThat(browser.post(CANCEL, form, Map.of("Origin", own)).statusCode()).as("from its own origin").isEqualTo(404);
        assertThat(browser.post(CANCEL, form, Map.of("Referer", own + "/runs")).statusCode()).as("its own page as Referer").isEqualTo(404);
    }

    @Test
    void aScriptWithTheApiTokenSendsNoOriginAndKeepsWorking() throws Exception {
        HttpResponse<String> imported = post("/api/baselines/import?name=origin-check-script",
                "{\"schema\":\"spacebench.result/v1\",\"metrics\":[{\"metric\":\"exec.noop\",\"n\":5,\"p50Ns\":1000}]}");
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        assertThat(delete("/api/baselines/origin-check-script").statusCode()).isEqualTo(204);
    }
}
