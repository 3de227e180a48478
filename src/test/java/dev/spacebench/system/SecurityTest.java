package dev.spacebench.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.BrowserSession;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Who may change what, over real HTTP against the whole app bound to loopback: the API token for
 * scripts, a session with its CSRF token for the dashboard's forms, the one-time unlock link, and
 * the Host check.
 */
class SecurityTest extends AppTestSupport {

    /** One noop round trip: cheap to run when a test lets a run through. */
    private static final String TINY_RUN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";
    /** Runs until cancelled. */
    private static final String ENDLESS_RUN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,"
            + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}";

    @Test
    void startingARunNeedsTheApiToken() throws Exception {
        long before = runCount();
        HttpResponse<String> none = http.send(HttpRequest.newBuilder(uri("/api/runs")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TINY_RUN)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"spacebench\"");
        assertThat(json(none).get("status").asInt()).isEqualTo(401);
        assertThat(json(none).get("detail").asString()).contains("Authorization: Bearer");
        assertThat(none.headers().firstValue("Set-Cookie")).as("a refused script gets no session").isEmpty();

        HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(uri("/api/runs")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + apiToken() + "x").POST(HttpRequest.BodyPublishers.ofString(TINY_RUN)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).doesNotContain(apiToken());
        assertThat(runCount()).as("refused requests queued nothing").isEqualTo(before);

        HttpResponse<String> right = post("/api/runs", TINY_RUN);
        assertThat(right.statusCode()).as(right.body()).isEqualTo(201);
        assertThat(runCount()).isEqualTo(before + 1);
        awaitFinished(json(right).get("id").asLong(), Duration.ofSeconds(120));
    }

    @Test
    void deletingABaselineNeedsTheApiToken() throws Exception {
        HttpResponse<String> none = http.send(HttpRequest.newBuilder(uri("/api/baselines/cua-0.15.0")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(json(none).get("title").asString()).isEqualTo("Credential needed");
        assertThat(get("/api/baselines/cua-0.15.0").statusCode()).as("the baseline is still there").isEqualTo(200);
        // Reads stay open on loopback: pages, lists and exports.
        assertThat(get("/api/baselines").statusCode()).isEqualTo(200);
        assertThat(get("/runs").statusCode()).isEqualTo(200);
    }

    @Test
    void crossSiteFormPostsAreRefusedEvenFromAnUnlockedBrowser() throws Exception {
        BrowserSession browser = unlockedBrowser();
        Map<String, String> crossSite = Map.of("Origin", "https://evil.example", "Referer", "https://evil.example/page");
        long before = runCount();
        HttpResponse<String> start = browser.post("/runs", Map.of("kind", "process", "metrics", "noop", "execN", "1",
                "fileSizes", "", "floor", "off"), crossSite);
        assertThat(start.statusCode()).isEqualTo(403);
        assertThat(start.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(start.body()).contains("<h1>Refused: the form's security token was missing or stale</h1>");
        assertThat(runCount()).isEqualTo(before);

        long id = json(post("/api/runs", ENDLESS_RUN)).get("id").asLong();
        HttpResponse<String> cancel = browser.post("/runs/" + id + "/cancel", Map.of(), crossSite);
        assertThat(cancel.statusCode()).isEqualTo(403);
        assertThat(json(get("/api/runs/" + id)).get("status").asString()).isIn("QUEUED", "RUNNING");
        // The API with the session cookie and no CSRF token is refused the same way, as problem+json.
        HttpResponse<String> apiCancel = browser.post("/api/runs/" + id + "/cancel", Map.of(), crossSite);
        assertThat(apiCancel.statusCode()).isEqualTo(403);
        assertThat(apiCancel.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));

        // The dashboard's own form, with the field its page holds, goes through.
        HttpResponse<String> own = browser.submit("/", "/runs/" + id + "/cancel", Map.of());
        assertThat(own.statusCode()).isEqualTo(303);
        assertThat(awaitFinished(id, Duration.ofSeconds(90)).get("status").asString()).isEqualTo("CANCELLED");

        // A browser that was never unlocked is sent to the login page, even with a CSRF field.
        BrowserSession locked = new BrowserSession(this::uri);
        HttpResponse<String> lockedStart = locked.submit("/", "/runs", Map.of("kind", "process", "metrics", "noop", "execN", "1",
                "fileSizes", "", "floor", "off"));
        assertThat(lockedStart.statusCode()).isEqualTo(302);
        assertThat(lockedStart.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).contains("/login?then="));
        assertThat(runCount()).isEqualTo(before + 1);
    }

    @Test
    void theDashboardSaysWhetherItIsLockedAndAStartRefusedForThatKeepsTheFormThroughTheLogin() throws Exception {
        BrowserSession browser = new BrowserSession(this::uri);
        String lockedPage = browser.get("/").body();
        assertThat(text(lockedPage, "lock")).isEqualTo("Locked: open the link printed at start, or enter the API token at /login. "
                + "Until then this browser can read but not start or cancel runs; what you type in the form is kept.");
        assertThat(lockedPage).contains("<a id=\"lock-login\" href=\"/login\">/login</a>");
        long before = runCount();

        Map<String, String> typed = new LinkedHashMap<>();
        typed.put("kind", "process");
        typed.put("cpus", "1.5");
        typed.put("memoryMiB", "300");
        typed.put("metrics", "noop");
        typed.put("execN", "17");
        typed.put("execWarmups", "3");
        typed.put("fileSizes", "64KiB:2, 1MiB:4");
        typed.put("floor", "off");
        typed.put("sweepLevels", "1, 2");
        HttpResponse<String> refused = browser.submit("/", "/runs", typed);
        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(runCount()).as("nothing queued by a locked browser").isEqualTo(before);
        URI login = URI.create(refused.headers().firstValue("Location").orElseThrow());
        assertThat(login.getPath()).isEqualTo("/login");
        String then = URLDecoder.decode(login.getRawQuery().substring("then=".length()), StandardCharsets.UTF_8);
        assertThat(then).startsWith("/?").doesNotContain("_csrf");
        Map<String, String> carried = new LinkedHashMap<>();
        for (String pair : then.substring(2).split("&")) {
            String[] kv = pair.split("=", 2);
            carried.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        assertThat(carried).isEqualTo(typed);

        String loginPage = browser.get(login.getRawPath() + "?" + login.getRawQuery()).body();
        assertThat(loginPage).contains("id=\"form-kept\"");
        Matcher hidden = Pattern.compile("name=\"then\" value=\"([^\"]*)\"").matcher(loginPage);
        assertThat(hidden.find()).isTrue();
        assertThat(hidden.group(1).replace("&amp;", "&")).isEqualTo(then);

        Map<String, String> form = new LinkedHashMap<>(Map.of("token", apiToken(), "then", then));
        HttpResponse<String> unlocked = browser.submit(login.getRawPath() + "?" + login.getRawQuery(), "/login", form);
        assertThat(unlocked.statusCode()).isEqualTo(302);
        URI back = URI.create(unlocked.headers().firstValue("Location").orElseThrow());
        assertThat(back.getPath()).isEqualTo("/");
        assertThat(URLDecoder.decode(back.getRawQuery(), StandardCharsets.UTF_8))
                .isEqualTo(URLDecoder.decode(then.substring(2), StandardCharsets.UTF_8));

        String dashboard = browser.get(back.getRawPath() + "?" + back.getRawQuery()).body();
        assertThat(text(dashboard, "lock")).isEqualTo("Unlocked: this browser may start and cancel runs.");
        assertThat(dashboard).contains("id=\"cpus\" name=\"cpus\" type=\"number\" step=\"any\" min=\"0\" value=\"1.5\"")
                .contains("id=\"execN\" name=\"execN\" type=\"number\" min=\"1\" value=\"17\"")
                .contains("value=\"64KiB:2, 1MiB:4\"").contains("value=\"1, 2\"")
                .containsPattern("<option value=\"off\" selected=\"selected\">skipped</option>");
        assertThat(runCount()).isEqualTo(before);

        // Only this app's paths are returned to.
        BrowserSession other = new BrowserSession(this::uri);
        HttpResponse<String> offsite = other.submit("/login", "/login", Map.of("token", apiToken(), "then", "//evil.example/x"));
        assertThat(offsite.headers().firstValue("Location")).hasValue(uri("/").toString());
        assertThat(other.get("/login?then=https://evil.example/").body()).contains("name=\"then\" value=\"/\"");
    }

    /** The text of the element with this id, tags dropped and white space folded. */
    private static String text(String html, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*>(.*?)</p>", Pattern.DOTALL).matcher(html);
        assertThat(m.find()).as("#" + id).isTrue();
        return m.group(1).replaceAll("<[^>]+>", "").replaceAll("\\s+", " ").trim();
    }

    @Test
    void theUnlockLinkWorksOnceAndTheLoginFormTakesTheToken() throws Exception {
        String code = unlockCodes.issue();
        BrowserSession first = new BrowserSession(this::uri);
        HttpResponse<String> unlocked = first.get("/unlock?code=" + code);
        assertThat(unlocked.statusCode()).isEqualTo(302);
        assertThat(unlocked.headers().firstValue("Location")).hasValue(uri("/").toString());
        assertThat(first.get("/login").body()).contains("id=\"unlocked\"");

        BrowserSession second = new BrowserSession(this::uri);
        HttpResponse<String> again = second.get("/unlock?code=" + code);
        assertThat(again.statusCode()).isEqualTo(302);
        assertThat(again.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login?link=used"));
        assertThat(second.get("/login?link=used").body()).contains("id=\"link-used\"").doesNotContain("id=\"unlocked\"");
        assertThat(second.get("/unlock?code=made-up").headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/login?link=used"));

        HttpResponse<String> wrong = second.submit("/login", "/login", Map.of("token", "not-the-token-of-this-app"));
        assertThat(wrong.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login?error"));
        assertThat(second.get("/login").body()).doesNotContain("id=\"unlocked\"");
        HttpResponse<String> right = second.submit("/login", "/login", Map.of("token", apiToken()));
        assertThat(right.statusCode()).isEqualTo(302);
        assertThat(right.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/"));
        assertThat(second.get("/login").body()).contains("id=\"unlocked\"");
    }

    @Test
    void theTokenFileIsReadableByItsOwnerOnlyAndHoldsAStrongToken() throws Exception {
        var file = DATA.resolve("api-token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        // 32 random bytes, base64url: 43 characters.
        assertThat(apiToken()).matches("[A-Za-z0-9_-]{43}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(DATA.resolve("server.json")))).isEqualTo("rw-------");
    }

    @Test
    void aHostThatIsNotThisAppsAddressIsRefused() throws Exception {
        String evil = raw("GET /api/runs HTTP/1.1\r\nHost: evil.example:" + port + "\r\nConnection: close\r\n\r\n");
        assertThat(evil).startsWith("HTTP/1.1 421").contains("application/problem+json").contains("\"status\":421");
        String rebound = raw("POST /api/runs HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer " + apiToken()
                + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertThat(rebound).startsWith("HTTP/1.1 421");
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n")).as("another port").startsWith("HTTP/1.1 421");
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: localhost:" + port + "\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: [::1]:" + port + "\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
    }

    private long runCount() throws Exception {
        return json(get("/api/runs?size=1")).get("totalElements").asLong();
    }
}
