package dev.spacebench.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.Chromium;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Issue 24: a published page carries everything the run's page does. One real run (no-op, true, sh -c true, a file,
 * the floor, a small concurrency sweep) is shown as /runs/{id}, as /benchmarks/{slug} and as the static site's
 * {slug}/index.html; the visible text of their report sections must be identical once the chrome each may have of its
 * own is taken out, and that chrome is listed here, element by element ({@link #OWN_CHROME}). Then, in Chromium where
 * it is installed, the layout: the Reproduce block and the sweep table stay inside the column, the history plot has
 * one y label.
 */
class PublishedPageTest extends AppTestSupport {

    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"true\",\"sh_c\"],"
            + "\"n\":40,\"warmups\":2,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[{\"bytes\":65536,\"n\":3}],\"warmups\":0},"
            + "\"floor\":{\"enabled\":true,\"n\":40,\"warmups\":2},"
            + "\"concurrency\":{\"levels\":[2],\"metrics\":[\"sh_c\"],\"n\":5}}}";
    private static final String SLUG = "published-analysis";
    /**
     * What may differ between the three renderings, and nothing else: the run page's buttons (publish, compare,
     * delete), a benchmark's byline (version, n, raw data link) and checked date, and its History section.
     */
    private static final List<String> OWN_CHROME = List.of("#run-actions", "#benchmark-byline", "#benchmark-checked", "#history");
    /**
     * The environment rows a static site shows without the publisher's host name, paths and pids
     * (publish.PublishedEnvironment; PublishedSiteTest checks what they say there): the site's text is
     * compared with the run page's without them.
     */
    private static final String SITE_REDACTED = "table.facts tr:has(> th:matchesOwn(^(Testbed|Host|Worker|Space pid|Space agent pid"
            + "|Space directory|Space bulk lane|Space loops timed in|Inside the Space|Host JVM flags|Agent JVM flags)$))";

    private static Long run;

    private synchronized long publishedRun() throws Exception {
        if (run == null) {
            HttpResponse<String> created = post("/api/runs", PLAN);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            long id = json(created).get("id").asLong();
            assertThat(awaitFinished(id, Duration.ofMinutes(4)).get("status").asString()).isEqualTo("SUCCEEDED");
            HttpResponse<String> published = post("/api/benchmarks", "{\"slug\":\"" + SLUG + "\",\"runId\":" + id + "}");
            assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
            run = id;
        }
        return run;
    }

    /** The report's visible text, block by block, without the chrome a rendering may have of its own. */
    private static List<String> reportText(Document page) {
        return reportText(page, List.of());
    }

    /** As above, without the elements {@code alsoWithout} selects too. */
    private static List<String> reportText(Document page, List<String> alsoWithout) {
        Element report = page.selectFirst("main.report");
        assertThat(report).isNotNull();
        Element copy = report.clone();
        OWN_CHROME.forEach(selector -> copy.select(selector).remove());
        alsoWithout.forEach(selector -> copy.select(selector).remove());
        List<String> blocks = new ArrayList<>();
        for (Element e : copy.select("h1, h2, h3, h4, p, li, dt, dd, tr, pre, figcaption")) {
            blocks.add(e.tagName() + ": " + e.text());
        }
        // And the whole, so nothing outside those blocks differs either.
        blocks.add("all: " + copy.text());
        return blocks;
    }

    private Document html(String path) throws Exception {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return Jsoup.parse(response.body());
    }

    @Test
    void theRunPageTheBenchmarkPageAndTheStaticSiteSayTheSame() throws Exception {
        long id = publishedRun();
        Document runPage = html("/runs/" + id);
        Document benchmarkPage = html("/benchmarks/" + SLUG);
        Document sitePage = Jsoup.parse(siteFile(SLUG + "/index.html"));

        // The analysis is there, in full: the split, the one "added" figure per exec metric, the tail, files, ready.
        Element runReport = runPage.selectFirst("main.report");
        assertThat(runReport.select("#split-table tbody tr")).hasSize(2);
        assertThat(runReport.select("ul.harness li").eachAttr("data-added")).containsExactly("exec.noop", "exec.true", "exec.sh_c");
        assertThat(runReport.select("h4").eachText()).contains("What the tail is made of");
        assertThat(runReport.select("#file-split-table tbody tr")).hasSize(2);
        assertThat(runReport.select("#ready-split-table tbody tr")).hasSize(3);
        assertThat(runReport.select("#concurrency-table tbody tr")).isNotEmpty();
        // Each "added" sentence gives its interval, or says it is within noise.
        for (Element added : runReport.select("ul.harness li")) {
            assertThat(added.text()).containsAnyOf("95% CI", "within this run's noise");
            assertThat(added.attr("data-ci-lower")).as(added.text()).isNotEmpty();
        }
        // No second "added" figure anywhere else on the page.
        Element withoutHarness = runReport.clone();
        withoutHarness.select("ul.harness").remove();
        assertThat(withoutHarness.text()).doesNotContain("Space added", "came in");

        List<String> fromRun = reportText(runPage);
        assertThat(reportText(benchmarkPage)).isEqualTo(fromRun);
        assertThat(reportText(sitePage, List.of(SITE_REDACTED))).isEqualTo(reportText(runPage, List.of(SITE_REDACTED)));
        assertThat(runPage.select(SITE_REDACTED)).as("the rows left out of the site's comparison").hasSizeGreaterThan(5);
        // The chrome taken out is each rendering's own, and is there.
        assertThat(runPage.select("#run-actions")).hasSize(1);
        assertThat(runPage.select("#history, #benchmark-byline, #benchmark-checked")).isEmpty();
        assertThat(benchmarkPage.select("#run-actions, #history, #benchmark-byline, #benchmark-checked")).hasSize(4);
        assertThat(sitePage.select("#history, #benchmark-byline, #benchmark-checked")).hasSize(3);
        assertThat(sitePage.select("#run-actions")).as("a static site has no buttons").isEmpty();

        // page.md carries the same sentences.
        String markdown = get("/api/runs/" + id + "/page.md").body();
        for (Element line : runReport.select("ul.harness li, ul.tail li")) {
            assertThat(markdown).contains(line.text());
        }
        assertThat(markdown).contains("| Space ready, in parts | p50 |");

        // The plan had files: the title says so; the default repository is named as upstream's.
        assertThat(runPage.selectFirst("h1").text())
                .isEqualTo("How long does a command round trip, and a file transfer, into a process Space take?");
        assertThat(runPage.select("#repository-note").text()).contains("spacebench.publish.repository-url", "upstream");
    }

    @Test
    void aPlanOfShCAloneAsksNoQuestionAboutTrueOrTheNoop() throws Exception {
        HttpResponse<String> created = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"sh_c\"],"
                + "\"n\":5,\"warmups\":1,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("SUCCEEDED");
        Document page = html("/runs/" + id);

        assertThat(page.selectFirst("h1").text()).isEqualTo("How long does a command round trip into a process Space take?");
        String questions = page.select("#questions").text();
        assertThat(questions).contains("Which figure should I quote?").doesNotContain("no-op", "than true");
        assertThat(page.select("#caveats").text()).contains("sh -c true measures the host's spawn cost")
                .doesNotContain("true and sh -c true");
    }

    /** In Chromium: wide content stays in its column, the history plot has one y label; screenshots for the issue. */
    @Test
    @ExtendWith(Chromium.Required.class)
    void theLayoutHoldsInChromium() throws Exception {
        long id = publishedRun();
        Path profile = Files.createTempDirectory("spacebench-chromium-");
        WebDriver browser = Chromium.start(profile, 1100, 1800);
        try {
            Path shots = Files.createDirectories(Path.of("target", "screenshots"));
            for (String path : List.of("/runs/" + id, "/benchmarks/" + SLUG)) {
                browser.get(uri(path).toString());
                JavascriptExecutor js = (JavascriptExecutor) browser;
                WebElement main = browser.findElement(By.cssSelector("main.report"));
                long columnRight = ((Number) js.executeScript(
                        "const m = arguments[0]; return m.getBoundingClientRect().right - parseFloat(getComputedStyle(m).paddingRight);",
                        main)).longValue();
                // The Reproduce lines wrap: no horizontal scrolling, nothing past the column.
                WebElement reproduce = browser.findElement(By.cssSelector("#reproduce pre"));
                assertThat(number(js, "return arguments[0].scrollWidth - arguments[0].clientWidth;", reproduce)).as(path).isLessThanOrEqualTo(0);
                assertThat(number(js, "return arguments[0].getBoundingClientRect().right;", reproduce)).as(path).isLessThanOrEqualTo(columnRight + 1);
                // The sweep table scrolls inside its own box, which ends at the column's edge.
                WebElement sweep = browser.findElement(By.id("concurrency-scroll"));
                assertThat(number(js, "return arguments[0].getBoundingClientRect().right;", sweep)).as(path).isLessThanOrEqualTo(columnRight + 1);
                // The page itself does not scroll sideways.
                assertThat(number(js, "return document.documentElement.scrollWidth - document.documentElement.clientWidth;", main))
                        .as(path).isLessThanOrEqualTo(0);
                Files.write(shots.resolve(path.startsWith("/runs") ? "published-run-page.png" : "published-benchmark-page.png"),
                        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
            }
            // On the run page: the default slug fits its input.
            browser.get(uri("/runs/" + id).toString());
            WebElement slug = browser.findElement(By.id("publish-slug"));
            assertThat(number((JavascriptExecutor) browser, "return arguments[0].scrollWidth - arguments[0].clientWidth;", slug))
                    .isLessThanOrEqualTo(0);
            // On the benchmark page: the history plot has one y label.
            browser.get(uri("/benchmarks/" + SLUG).toString());
            assertThat(browser.findElements(By.cssSelector("#history svg text.y-label"))).hasSize(1);
        } finally {
            browser.quit();
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static long number(JavascriptExecutor js, String script, WebElement element) {
        return Math.round(((Number) js.executeScript(script, element)).doubleValue());
    }

    /** One file of the static site, as /api/site.zip holds it. */
    private String siteFile(String name) throws Exception {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri("/api/site.zip")).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(response.body()))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (entry.getName().equals(name)) {
                    return new String(zip.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError(name + " is not in site.zip");
    }
}
