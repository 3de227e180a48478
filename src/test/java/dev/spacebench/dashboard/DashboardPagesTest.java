package dev.spacebench.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.BrowserSession;
import dev.spacebench.plan.ExecPlan;
import dev.spacebench.plan.FilePlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunStatus;
import dev.spacebench.space.KindChecks;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard and runs list as a browser without JavaScript uses them: plain form posts,
 * redirects and links, over real HTTP. Also the server-sent event streams.
 */
class DashboardPagesTest extends AppTestSupport {

    @Autowired
    RunRepository runs;

    @Autowired
    Spaces spaces;

    private BrowserSession browser;

    @Autowired
    KindChecks checks;

    @Test
    void badInputComesBackWithEachErrorBesideItsInputAndTheInputKept() throws Exception {
        HttpResponse<String> unreadable = postForm("/runs", Map.of("kind", "process", "metrics", "noop", "execN", "abc",
                "fileSizes", "1MiB:2, 4MB:3", "fileWarmups", "0"));
        assertThat(unreadable.statusCode()).isEqualTo(400);
        assertThat(error(unreadable, "execN")).isEqualTo("must be a number, was &#39;abc&#39;");
        assertThat(error(unreadable, "fileSizes")).isEqualTo("entry 2 &#39;4MB:3&#39;: unit must be B, KiB, MiB or GiB, was &#39;MB&#39;");
        assertThat(unreadable.body()).contains("value=\"1MiB:2, 4MB:3\"");

        HttpResponse<String> outOfRange = postForm("/runs", Map.of("kind", "process", "cpus", "0", "metrics", "noop",
                "execN", "0", "execWarmups", "2", "fileSizes", "1MiB:0", "fileWarmups", "0"));
        assertThat(outOfRange.statusCode()).isEqualTo(400);
        assertThat(error(outOfRange, "execN")).isEqualTo("must be from 1 to 1000000, was 0");
        assertThat(error(outOfRange, "cpus")).startsWith("must be more than 0");
        assertThat(error(outOfRange, "fileSizes")).isEqualTo("entry 1 iterations must be from 1 to 1000000, was 0");
        assertThat(outOfRange.body()).contains("id=\"execN\" name=\"execN\" type=\"number\" min=\"1\" value=\"0\"");

        // An unreadable input does not hide the range errors of the others: all come back at once.
        HttpResponse<String> both = postForm("/runs", Map.of("kind", "process", "cpus", "0", "metrics", "noop",
                "execN", "abc", "execWarmups", "-1", "fileSizes", "1MiB:0", "fileWarmups", "0"));
        assertThat(both.statusCode()).isEqualTo(400);
        assertThat(error(both, "execN")).isEqualTo("must be a number, was &#39;abc&#39;");
        assertThat(error(both, "execWarmups")).isEqualTo("must be from 0 to 10000, was -1");
        assertThat(error(both, "cpus")).startsWith("must be more than 0");
        assertThat(error(both, "fileSizes")).isEqualTo("entry 1 iterations must be from 1 to 1000000, was 0");

        HttpResponse<String> nothing = postForm("/runs", Map.of("kind", "process", "metrics", "", "fileSizes", ""));
        assertThat(error(nothing, "form")).startsWith("plan has nothing to measure");
    }

    @Test
    void theFormStartsAConcurrencySweepOfTheTickedRoundTripsAndNamesABadLevel() throws Exception {
        HttpResponse<String> unreadable = postForm("/runs", Map.of("kind", "process", "metrics", "noop", "fileSizes", "",
                "sweepLevels", "1, two", "sweepN", "0"));
        assertThat(unreadable.statusCode()).isEqualTo(400);
        assertThat(error(unreadable, "sweepLevels"))
                .isEqualTo("must be whole numbers separated by commas, e.g. 1, 2, 4, 8; was &#39;1, two&#39;");
        assertThat(error(unreadable, "sweepN")).isEqualTo("must be from 1 to 1000000, was 0");
        assertThat(unreadable.body()).contains("value=\"1, two\"");

        HttpResponse<String> descending = postForm("/runs", Map.of("kind", "process", "metrics", "noop", "fileSizes", "",
                "sweepLevels", "2 1 65"));
        assertThat(descending.statusCode()).isEqualTo(400);
        assertThat(error(descending, "sweepLevels")).isEqualTo(
                "level 2 must be more than the level before it (levels ascend, each once), was 1 after 2; "
                        + "level 3 must be from 1 to 64 (the configured maximum, spacebench.plan.max-concurrency), was 65");

        long id = queued(postForm("/runs", Map.of("kind", "process", "metrics", "noop", "execN", "3", "execWarmups", "0",
                "fileSizes", "", "floor", "off", "sweepLevels", " 1,2 ", "sweepN", "4")));
        JsonNode sweep = json(get("/api/runs/" + id)).get("plan").get("concurrency");
        assertThat(sweep.get("levels").toString()).isEqualTo("[1,2]");
        assertThat(sweep.get("metrics").toString()).isEqualTo("[\"noop\"]");
        assertThat(sweep.get("n").asInt()).isEqualTo(4);
        assertThat(awaitFinished(id, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");
        JsonNode results = json(get("/api/runs/" + id + "/result.json")).get("metrics");
        java.util.Map<String, Integer> n = new java.util.HashMap<>();
        results.forEach(m -> n.put(m.get("metric").asString(), m.get("n").asInt()));
        assertThat(n).containsEntry("sweep.1.exec.noop", 4).containsEntry("sweep.2.exec.noop", 8);
    }

    @Test
    void everyBadFileSizeEntryComesBackAtOnceNumberedAsTyped() throws Exception {
        // Entry 2 cannot be read; entries 1 and 3 can but are out of range (this app's maximum is 1 GiB = 1073741824 bytes).
        HttpResponse<String> page = postForm("/runs", Map.of("kind", "process", "metrics", "noop",
                "fileSizes", "1MiB:0, 1MiB:x, 2GiB:2", "fileWarmups", "0"));
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(error(page, "fileSizes")).isEqualTo("entry 1 iterations must be from 1 to 1000000, was 0; "
                + "entry 2 &#39;1MiB:x&#39; must look like 4MiB:20 (size:iterations); "
                + "entry 3 size must be from 1 to 1073741824 (the configured maximum, spacebench.plan.max-file-bytes), was 2147483648");
    }

    @Test
    void everyKindIsOfferedAndOnlyAvailableOnesCanBeChosen() throws Exception {
        spaces.kinds().keySet().forEach(kind -> checks.await(kind, Duration.ofMinutes(3)));
        String page = get("/").body();
        spaces.kinds().forEach((kind, availability) -> {
            String option = "<option value=\"" + kind + "\"";
            assertThat(page).contains(option);
            if (kind.equals("attach")) {
                assertThat(page).contains(option + " disabled=\"disabled\"").contains("POST /api/runs with space.target and space.token");
            } else if (availability.passed()) {
                assertThat(page).doesNotContain(option + " disabled");
            } else {
                assertThat(page).contains(option + " disabled=\"disabled\"").contains(HtmlUtils.htmlEscape(availability.reason()));
            }
        });
    }

    @Test
    void checkKindsAgainShowsEachKindAsCheckingUntilItsCheckEnds() throws Exception {
        checks.awaitIdle();
        assertThat(get("/").body()).contains("form=\"kinds-check\"").contains("action=\"/kinds/check\"");

        Instant asked = Instant.now();
        HttpResponse<String> posted = postForm("/kinds/check", Map.of());
        assertThat(posted.statusCode()).isEqualTo(303);
        assertThat(posted.headers().firstValue("Location")).hasValue("/?checking");
        String page = get("/?checking").body();
        assertThat(page).contains("Checking every kind again");
        // Each kind is checked on its own thread: process's check (a JVM to start) has almost never ended by now,
        // and where it has, it ended after the request.
        // (Where sandbox cannot run, process is the default kind and its option is the selected one.)
        if (java.util.regex.Pattern.compile("<option value=\"process\"[^>]*>process \\(checking…\\)</option>").matcher(page).find()) {
            assertThat(page).contains("<code>process</code>: checking…");
        } else {
            assertThat(checks.statuses().stream().filter(k -> k.kind().equals("process")).findFirst().orElseThrow().checkedAt())
                    .isAfter(asked);
        }

        checks.awaitIdle();
        assertThat(get("/").body()).doesNotContain("checking…");
    }

    @Test
    void usePresetFillsThePresetsNumbersAndKeepsTheSpace() throws Exception {
        HttpResponse<String> page = get("/?load=preset&preset=published&kind=process&cpus=2&execN=7");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("name=\"execN\" type=\"number\" min=\"1\" value=\"300\"")
                .contains("value=\"1MiB:20, 4MiB:20, 16MiB:10, 100MiB:10, 512MiB:5\"")
                .contains("name=\"cpus\" type=\"number\" step=\"any\" min=\"0\" value=\"2.0\"")
                .contains("<option value=\"published\" selected=\"selected\">published method</option>");
        assertThat(get("/").body()).contains("value=\"1MiB:5, 16MiB:3\"").contains("<noscript>").contains("/?refresh=5");
        assertThat(get("/?refresh=5").body()).contains("<meta http-equiv=\"refresh\" content=\"5\">");
    }

    @Test
    void theFormStartsAComparisonRunAndNamesABadEntry() throws Exception {
        HttpResponse<String> twice = postForm("/runs", Map.of("kind", "process", "metrics", "noop", "fileSizes", "",
                "compare", "A=process, A=process"));
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(error(twice, "compare")).isEqualTo("compare[1].label must be unique in compare, &#39;A&#39; was given twice");
        assertThat(twice.body()).contains("value=\"A=process, A=process\"");

        long id = queued(postForm("/runs", Map.of("kind", "process", "metrics", "noop", "execN", "1000000", "execWarmups", "0",
                "fileSizes", "", "floor", "off", "compare", "process  B=process")));
        JsonNode run = json(get("/api/runs/" + id));
        assertThat(run.get("compare").get(0).get("label").asString()).isEqualTo("process");
        assertThat(run.get("compare").get(1).get("label").asString()).isEqualTo("B");
        assertThat(run.get("compare").get(1).get("space").get("kind").asString()).isEqualTo("process");
        assertThat(postForm("/runs/" + id + "/cancel", Map.of()).statusCode()).isEqualTo(303);
        assertThat(awaitFinished(id, Duration.ofSeconds(90)).get("status").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void theFormQueuesRunsAndItsButtonsCancelThem() throws Exception {
        // Many no-op round trips: the first is still running when the second is queued behind it.
        Map<String, String> endless = Map.of("kind", "process", "metrics", "noop", "execN", "1000000", "execWarmups", "0",
                "fileSizes", "", "fileWarmups", "0", "floor", "off");
        long first = queued(postForm("/runs", endless));
        long second = queued(postForm("/runs", endless));
        String dashboard = get("/?queued=" + second).body();
        assertThat(dashboard).contains("Run #" + second + " queued.").contains("id=\"run-" + first + "\"")
                .contains("id=\"run-" + second + "\"");

        HttpResponse<String> cancelQueued = postForm("/runs/" + second + "/cancel", Map.of());
        assertThat(cancelQueued.statusCode()).isEqualTo(303);
        assertThat(cancelQueued.headers().firstValue("Location")).hasValue("/?cancelled=" + second);
        assertThat(json(get("/api/runs/" + second)).get("status").asString()).isEqualTo("CANCELLED");

        assertThat(postForm("/runs/" + first + "/cancel", Map.of()).statusCode()).isEqualTo(303);
        assertThat(awaitFinished(first, Duration.ofSeconds(90)).get("status").asString()).isEqualTo("CANCELLED");
        HttpResponse<String> tooLate = postForm("/runs/" + first + "/cancel", Map.of());
        assertThat(tooLate.headers().firstValue("Location")).hasValue("/?finished=" + first);
        assertThat(get("/?finished=" + first).body()).contains("had already finished");
    }

    @Test
    void runsListAndApiFilterByKindStatusAndDayAndPageWithTheFilter() throws Exception {
        String kind = "filter-" + System.nanoTime();
        long a = finishedRun(kind, RunStatus.SUCCEEDED, "2020-01-01T23:59:59Z");
        long b = finishedRun(kind, RunStatus.FAILED, "2020-01-02T00:00:00Z");
        long c = finishedRun(kind, RunStatus.SUCCEEDED, "2020-01-03T12:00:00Z");
        finishedRun(kind + "-other", RunStatus.SUCCEEDED, "2020-01-02T12:00:00Z");

        assertThat(ids("/api/runs?kind=" + kind)).containsExactly(c, b, a);
        assertThat(ids("/api/runs?kind=" + kind + "&status=succeeded")).containsExactly(c, a);
        assertThat(ids("/api/runs?kind=" + kind + "&from=2020-01-02&to=2020-01-02")).containsExactly(b);
        assertThat(ids("/api/runs?kind=" + kind + "&from=2020-01-02")).containsExactly(c, b);
        JsonNode page = json(get("/api/runs?kind=" + kind + "&status=SUCCEEDED&size=1&page=1"));
        assertThat(page.get("totalElements").asLong()).isEqualTo(2);
        assertThat(page.get("content").get(0).get("id").asLong()).isEqualTo(a);

        HttpResponse<String> bad = get("/api/runs?status=done&from=2020-02-30&to=2020-01-01");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("errors").findValuesAsString("field")).containsExactly("status", "from");
        HttpResponse<String> backwards = get("/api/runs?from=2020-01-02&to=2020-01-01");
        assertThat(json(backwards).get("errors").get(0).get("field").asString()).isEqualTo("to");

        String list = get("/runs?kind=" + kind + "&status=SUCCEEDED&from=2020-01-01&to=2020-01-31&size=1").body();
        assertThat(rowIds(list)).containsExactly(c);
        assertThat(list).contains("href=\"/runs?page=1&amp;size=1&amp;kind=" + kind
                + "&amp;status=SUCCEEDED&amp;from=2020-01-01&amp;to=2020-01-31\" rel=\"next\">older");
        assertThat(list).contains("page 1 of 2 (2 runs)").contains("value=\"2020-01-01\"");
        HttpResponse<String> badList = get("/runs?status=done&to=yesterday");
        assertThat(badList.statusCode()).isEqualTo(400);
        assertThat(error(badList, "status")).contains("was &#39;done&#39;");
        assertThat(error(badList, "to")).isEqualTo("must be a day like 2026-11-30, was &#39;yesterday&#39;");
        HttpResponse<String> unknownKind = get("/runs?kind=nothing-like-this");
        assertThat(unknownKind.statusCode()).isEqualTo(400);
        assertThat(error(unknownKind, "kind")).startsWith("must be one of [").contains(kind).endsWith("was &#39;nothing-like-this&#39;");
        assertThat(get("/runs?kind=" + kind + "&from=2031-01-01").body()).contains("No runs match this filter.");
    }

    @Test
    void aRunsEventStreamSendsItsStateAndEndsAfterTheFinalOne() throws Exception {
        long id = finishedRun("events-" + System.nanoTime(), RunStatus.SUCCEEDED, "2020-01-05T00:00:00Z");
        HttpResponse<String> stream = http.send(HttpRequest.newBuilder(uri("/api/runs/" + id + "/events"))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<String> data = stream.body().lines().filter(l -> l.startsWith("data:")).toList();
        assertThat(data).hasSize(1);
        JsonNode event = JSON.readTree(data.get(0).substring("data:".length()));
        assertThat(event.get("id").asLong()).isEqualTo(id);
        assertThat(event.get("finished").asBoolean()).isTrue();
        assertThat(event.get("percentText").asString()).isEqualTo("100%");
        assertThat(stream.body()).contains("event:run").contains("id:" + id);

        HttpResponse<String> unknown = get("/api/runs/987654/events");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("errors").get(0).get("field").asString()).isEqualTo("id");
    }

    private long finishedRun(String kind, RunStatus status, String createdAt) {
        Run run = new Run(kind, new SpaceSpec(kind, null, null), new Plan(new ExecPlan(List.of(), 1, 0, null),
                new FilePlan(List.of(), 0, 0L, 1024), null, null), 0, Instant.parse(createdAt));
        // Finished before it is saved: the worker never sees it queued.
        run.finish(status, status == RunStatus.FAILED ? "made by a test" : null, Instant.parse(createdAt));
        return runs.save(run).getId();
    }

    private List<Long> ids(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).get("content").valueStream().map(r -> r.get("id").asLong()).toList();
    }

    private static List<Long> rowIds(String html) {
        Matcher m = Pattern.compile("<tr data-run-id=\"(\\d+)\">").matcher(html);
        List<Long> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static long queued(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(303);
        String location = response.headers().firstValue("Location").orElseThrow();
        Matcher m = Pattern.compile("^/\\?queued=(\\d+)#run-\\1$").matcher(location);
        assertThat(m.matches()).as(location).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The text of the error paragraph beside an input, as the page escapes it. */
    private static String error(HttpResponse<String> page, String field) {
        Matcher m = Pattern.compile("<p class=\"error\" id=\"error-" + field + "\">([^<]*)</p>").matcher(page.body());
        assertThat(m.find()).as("error beside " + field + " in " + page.body()).isTrue();
        return m.group(1);
    }

    /** Posts the dashboard's form as an unlocked browser does: with the CSRF field of the page it came from. */
    private HttpResponse<String> postForm(String path, Map<String, String> fields) throws Exception {
        if (browser == null) {
            browser = unlockedBrowser();
        }
        return browser.submit("/", path, fields);
    }
}
