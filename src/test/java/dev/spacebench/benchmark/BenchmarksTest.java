package dev.spacebench.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.AppTestSupport;
import dev.spacebench.Chromium;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import tools.jackson.databind.JsonNode;

/**
 * Publishing: a run published under a slug, its history, runs kept while published, deletion,
 * and the static site (every link inside it, and opened from file:// in headless Chromium).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BenchmarksTest extends AppTestSupport {

    private static final String PLAN = "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\",\"true\"],"
            + "\"n\":8,\"warmups\":1,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[{\"bytes\":65536,\"n\":2}],\"warmups\":0},"
            + "\"floor\":{\"enabled\":false}}}";
    private static final Pattern LINK = Pattern.compile("(?:href|src)=\"([^\"]*)\"");
    private static final Pattern MD_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    private long succeededRun() throws Exception {
        long id = json(post("/api/runs", PLAN)).get("id").asLong();
        assertThat(awaitFinished(id, Duration.ofSeconds(180)).get("status").asString()).isEqualTo("SUCCEEDED");
        return id;
    }

    // The three steps share one published benchmark and its site, in order; the browser's step is
    // skipped on its own (and counted so) where Chromium is missing, and the others still run.
    private static long first;
    private static long second;
    private static Path site;
    private static int siteBenchmarks;

    @Test
    @Order(1)
    void aPublishedRunIsKeptListedAndExportedAsASiteThatLinksOnlyWithinItself() throws Exception {
        first = succeededRun();
        HttpResponse<String> published = post("/api/benchmarks", "{\"slug\":\"command-round-trip-process\",\"runId\":" + first + "}");
        assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
        assertThat(json(published).get("runId").asLong()).isEqualTo(first);

        // Bad input names its field; an unknown slug is 404; a published run cannot go.
        HttpResponse<String> bad = post("/api/benchmarks", "{\"slug\":\"Not A Slug\",\"runId\":" + first + "}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("\"field\":\"slug\"");
        assertThat(get("/api/benchmarks/no-such-benchmark").statusCode()).isEqualTo(404);
        HttpResponse<String> kept = delete("/api/runs/" + first);
        assertThat(kept.statusCode()).isEqualTo(409);
        assertThat(kept.body()).contains("published").contains("command-round-trip-process");

        // A newer run moves the first into the history.
        second = succeededRun();
        post("/api/benchmarks", "{\"slug\":\"command-round-trip-process\",\"runId\":" + second + "}");
        JsonNode benchmark = json(get("/api/benchmarks/command-round-trip-process"));
        assertThat(benchmark.get("runId").asLong()).isEqualTo(second);
        assertThat(benchmark.get("history").size()).isEqualTo(2);
        assertThat(benchmark.get("history").get(1).get("runId").asLong()).isEqualTo(first);

        String index = get("/benchmarks").body();
        assertThat(index).contains("href=\"/benchmarks/command-round-trip-process\"").contains("into a process Space");
        String page = get("/benchmarks/command-round-trip-process").body();
        assertThat(page).contains("Measured with Spacebench").contains("n = <span>8</span>").contains("Raw data (CSV)")
                .contains("Checked <time>").contains("id=\"history-table\"").contains("#" + first).contains("#" + second + " (current)");

        assertPageFixes(first, second);

        site = unzip(getBytes("/api/site.zip"));
        // The app context is shared with other test classes, which may have published benchmarks of their own.
        siteBenchmarks = json(get("/api/benchmarks")).size();
        Path folder = site.resolve("command-round-trip-process");
        for (String file : List.of("index.html", "spacebench.css", "command-round-trip-process/index.html",
                "command-round-trip-process/samples.csv", "command-round-trip-process/result.json",
                "command-round-trip-process/page.md", "command-round-trip-process/spacebench.css",
                "command-round-trip-process/plots/exec.true.svg", "command-round-trip-process/plots/throughput.svg")) {
            assertThat(site.resolve(file)).as(file).isRegularFile();
        }
        // The site's samples are the run's, byte for byte.
        assertThat(Files.readString(folder.resolve("samples.csv"))).isEqualTo(get("/api/runs/" + second + "/samples.csv").body());
        assertEveryLinkStaysInside(site);
    }

    @Test
    @Order(2)
    @ExtendWith(Chromium.Required.class)
    void theExportedSiteOpensInChromiumFromItsFolder() throws Exception {
        assumeTrue(site != null, "the site was not exported: see the step before");
        openInChromium(site);
    }

    @Test
    @Order(3)
    void anUnpublishedRunCanGoButARunningOneCannot() throws Exception {
        assumeTrue(second != 0, "nothing was published: see the first step");
        // Unpublished, its runs can go, with their samples; a running run cannot.
        assertThat(delete("/api/benchmarks/command-round-trip-process").statusCode()).isEqualTo(204);
        assertThat(delete("/api/runs/" + first).statusCode()).isEqualTo(204);
        assertThat(get("/api/runs/" + first).statusCode()).isEqualTo(404);
        assertThat(get("/api/runs/" + first + "/samples.csv").statusCode()).isEqualTo(404);
        long running = json(post("/api/runs", PLAN.replace("\"n\":8", "\"n\":1000000"))).get("id").asLong();
        HttpResponse<String> busy = delete("/api/runs/" + running);
        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(busy.body()).containsAnyOf("QUEUED", "RUNNING");
        post("/api/runs/" + running + "/cancel", "");
        awaitFinished(running, Duration.ofSeconds(60));
    }

    /** The environment's shape row once, the compare page's per-Space rows not flagged, the API named, prose written once. */
    private void assertPageFixes(long first, long second) throws Exception {
        String page = get("/runs/" + second).body();
        assertThat(page).contains("<th scope=\"row\">Space shape asked</th>").doesNotContain("<th scope=\"row\">Shape asked</th>");
        assertThat(page).contains("id=\"publish-form\"").contains("id=\"compare-runs-form\"").contains("id=\"delete-form\"");

        String compare = get("/compare?runs=" + first + "," + second).body();
        for (String label : List.of("Space pid", "Space directory", "Space network")) {
            Matcher row = Pattern.compile("<tr([^>]*)>\\s*<th[^>]*>" + label + "</th>").matcher(compare);
            assertThat(row.find()).as(label + " row on " + compare).isTrue();
            assertThat(row.group(1)).as(label).doesNotContain("differs");
        }

        long runs = json(get("/api/runs?size=1")).get("totalElements").asLong();
        assertThat(get("/runs").body()).containsPattern("The database holds <span>" + runs + " runs, [1-9]\\d* samples, [0-9.]+ MiB on disk");

        JsonNode info = json(get("/v3/api-docs")).get("info");
        assertThat(info.get("title").asString()).isEqualTo("Spacebench REST API");
        assertThat(info.get("version").asString()).isNotEqualTo("v0").isNotBlank();

        // page.md's Method is the HTML page's, item for item (one template writes both).
        String markdown = get("/api/runs/" + second + "/page.md").body();
        String mdMethod = markdown.substring(markdown.indexOf("## Method"), markdown.indexOf("## Caveats"));
        List<String> mdItems = mdMethod.lines().filter(l -> l.startsWith("- ")).map(l -> l.substring(2)).toList();
        String htmlMethod = page.substring(page.indexOf("id=\"method\""), page.indexOf("id=\"caveats\""));
        List<String> htmlItems = Pattern.compile("<li>([^<]*)</li>").matcher(htmlMethod).results()
                .map(m -> m.group(1).replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&").replace("&gt;", ">").replace("&lt;", "<")).toList();
        assertThat(mdItems).hasSizeGreaterThan(5).isEqualTo(htmlItems);
        int code = markdown.indexOf("```sh\n", markdown.indexOf("## Reproduce")) + 6;
        String reproduce = markdown.substring(code, markdown.indexOf("```\n", code));
        assertThat(reproduce.lines().findFirst().orElseThrow()).startsWith("git clone ");
        assertThat(reproduce).doesNotContain("null").contains(" bench --kind process ").contains("cat > plan.json");
    }

    /** Every href and src of every page, and every link of every page.md, names a file inside the site. */
    private static void assertEveryLinkStaysInside(Path site) throws IOException {
        List<String> checked = new ArrayList<>();
        try (Stream<Path> files = Files.walk(site)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".html") || f.toString().endsWith(".md")).toList()) {
                String text = Files.readString(file);
                Matcher links = (file.toString().endsWith(".md") ? MD_LINK : LINK).matcher(text);
                while (links.find()) {
                    String link = links.group(1);
                    assertThat(link).as("in %s", site.relativize(file)).doesNotStartWith("/").doesNotContain("://");
                    Path target = file.getParent().resolve(URLDecoder.decode(link.replace("&amp;", "&"), StandardCharsets.UTF_8))
                            .normalize();
                    assertThat(target).as("%s in %s", link, site.relativize(file)).startsWithRaw(site).isRegularFile();
                    checked.add(link);
                }
            }
        }
        assertThat(checked).as("links walked").hasSizeGreaterThan(20);
    }

    private void openInChromium(Path site) throws IOException {
        Path profile = Files.createTempDirectory("spacebench-chromium-");
        WebDriver browser = Chromium.start(profile, 1280, 1600);
        try {
            browser.get(site.resolve("index.html").toUri().toString());
            assertThat(browser.findElements(By.cssSelector("#benchmarks-table tbody tr"))).hasSize(siteBenchmarks);
            browser.findElement(By.cssSelector("#benchmarks-table tbody a[href='command-round-trip-process/index.html']")).click();
            assertThat(browser.getCurrentUrl()).isEqualTo(site.resolve("command-round-trip-process/index.html").toUri().toString());
            assertThat(browser.findElements(By.cssSelector("#exec-table tbody tr"))).hasSize(2);
            assertThat(browser.findElements(By.cssSelector("#history-table tbody tr"))).hasSize(2);
            // Plots are inline SVG that the browser laid out (a width of 0 would mean it could not).
            assertThat(browser.findElements(By.cssSelector("figure.plot svg"))).isNotEmpty()
                    .allSatisfy(svg -> assertThat(svg.getSize().getWidth()).isGreaterThan(100));
            // The stylesheet loaded from the folder: the page is not the browser's default serif.
            assertThat(browser.findElement(By.tagName("body")).getCssValue("font-family")).doesNotContain("Times");
            Path shots = Files.createDirectories(Path.of("target", "screenshots"));
            Files.write(shots.resolve("site-benchmark.png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } finally {
            browser.quit();
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private byte[] getBytes(String path) throws Exception {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static Path unzip(byte[] zip) throws IOException {
        // Under target/, not /tmp: other tests clean up /tmp/spacebench-* behind them.
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target").toAbsolutePath()), "site-").toRealPath();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                Path file = dir.resolve(entry.getName()).normalize();
                assertThat(file).startsWithRaw(dir);
                Files.createDirectories(file.getParent());
                Files.copy(in, file);
            }
        }
        return dir;
    }
}
