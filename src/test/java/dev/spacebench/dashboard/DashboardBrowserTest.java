package dev.spacebench.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.Chromium;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}
 * packages): start a small run from the form, watch its progress reach 100% without a reload,
 * open its page. Screenshots go to {@code target/screenshots/}.
 */
@org.junit.jupiter.api.extension.ExtendWith(Chromium.Required.class)
class DashboardBrowserTest extends AppTestSupport {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void startBrowser() throws IOException {
        profile = Files.createTempDirectory("spacebench-chromium-");
        browser = Chromium.start(profile, 1280, 1800);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** As a user does once: opens the one-time link the app printed, which lands on the dashboard. */
    private void unlock() {
        browser.get(uri("/unlock?code=" + unlockCodes.issue()).toString());
        assertThat(browser.getCurrentUrl()).isEqualTo(uri("/").toString());
    }

    @Test
    void aRunStartedFromTheFormShowsItsProgressLiveToTheEndAndItsPage() throws Exception {
        unlock();
        browser.get(uri("/").toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(b -> "on".equals(b.findElement(By.tagName("html")).getDomAttribute("data-live")));

        // The script fills the published numbers at once, then the form is edited down to a small plan.
        new Select(browser.findElement(By.id("preset"))).selectByValue("published");
        assertThat(browser.findElement(By.id("execN")).getDomProperty("value")).isEqualTo("300");
        assertThat(browser.findElement(By.id("use-preset")).isDisplayed()).isFalse();
        new Select(browser.findElement(By.id("kind"))).selectByValue("process");
        type("execN", "40");
        type("execWarmups", "2");
        type("fileSizes", "1MiB:3");
        type("fileWarmups", "0");
        new Select(browser.findElement(By.id("floor"))).selectByValue("off");
        browser.findElement(By.id("start-run")).click();

        wait.until(b -> b.getCurrentUrl().contains("queued="));
        Matcher queued = Pattern.compile("queued=(\\d+)").matcher(browser.getCurrentUrl());
        assertThat(queued.find()).isTrue();
        long id = Long.parseLong(queued.group(1));
        assertThat(browser.findElement(By.id("notice")).getText()).isEqualTo("Run #" + id + " queued.");
        // Survives only as long as no reload happens.
        ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'yes';");

        List<String> seen = new ArrayList<>();
        By percent = By.cssSelector("#running .live-run[data-run-id='" + id + "'] [data-field='percent']");
        new WebDriverWait(browser, Duration.ofSeconds(120)).pollingEvery(Duration.ofMillis(100)).until(b -> {
            List<WebElement> cells = b.findElements(percent);
            if (cells.isEmpty()) {
                return false;
            }
            String text = cells.get(0).getText();
            if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(text)) {
                seen.add(text);
            }
            return text.equals("100%");
        });
        WebElement row = browser.findElement(By.cssSelector("#running .live-run[data-run-id='" + id + "']"));
        wait.until(b -> row.getDomAttribute("class").contains("finished"));
        assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument;")).isEqualTo("yes");
        assertThat(seen).as("percentages shown while it ran").hasSizeGreaterThan(1);
        assertThat(row.findElement(By.cssSelector("[data-field='status']")).getText()).isEqualTo("SUCCEEDED");
        assertThat(row.findElement(By.cssSelector("progress")).getDomProperty("value")).isEqualTo("100");
        assertThat(row.findElements(By.cssSelector("[data-field='figures'] li")).stream().map(WebElement::getText))
                .anySatisfy(f -> assertThat(f).startsWith("sh -c true p50 ").endsWith("(n = 40)"));
        // The finished run has also arrived under latest results, still without a reload.
        wait.until(b -> !b.findElements(By.cssSelector("#latest-table tr[data-run-id='" + id + "']")).isEmpty());
        screenshot("dashboard.png");

        row.findElement(By.linkText("Read the page")).click();
        wait.until(b -> b.getCurrentUrl().endsWith("/runs/" + id));
        assertThat(browser.findElements(By.cssSelector("#exec-table tbody tr"))).hasSize(3);
        assertThat(browser.findElements(By.cssSelector("#file-table tbody tr"))).hasSize(1);
        assertThat(browser.findElement(By.cssSelector(".headline")).getText()).contains("(p50, n = 40)");
        screenshot("run-page.png");
    }

    @Test
    void cancelButtonStopsARunningRunWithoutLeavingThePage() throws Exception {
        long id = json(post("/api/runs", "{\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,\"warmups\":0},"
                + "\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}")).get("id").asLong();
        unlock();
        browser.get(uri("/").toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        wait.until(b -> "on".equals(b.findElement(By.tagName("html")).getDomAttribute("data-live")));
        ((JavascriptExecutor) browser).executeScript("window.sameDocument = 'yes';");
        By row = By.cssSelector("#running .live-run[data-run-id='" + id + "']");
        // It may still be queued when the page loads; the page moves it to Running by itself.
        wait.until(b -> !b.findElements(row).isEmpty()
                && !b.findElement(row).findElement(By.cssSelector("[data-field='step']")).getText().equals("starting"));

        WebElement button = browser.findElement(row).findElement(By.cssSelector("form.cancel button"));
        button.click();
        wait.until(b -> b.findElement(row).findElement(By.cssSelector("[data-field='status']")).getText().equals("CANCELLED"));
        assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument;")).isEqualTo("yes");
        assertThat(browser.findElement(row).getText()).contains("cancelled: cancelled by request");
        assertThat(json(get("/api/runs/" + id)).get("status").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void aLockedDashboardSaysSoAndItsStartFormComesBackFilledInAfterTheLogin() throws Exception {
        browser.manage().deleteAllCookies();
        browser.get(uri("/").toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(b -> "on".equals(b.findElement(By.tagName("html")).getDomAttribute("data-live")));
        WebElement lock = browser.findElement(By.id("lock"));
        assertThat(lock.isDisplayed()).isTrue();
        assertThat(lock.getText()).startsWith("Locked: open the link printed at start, or enter the API token at /login");
        assertThat(lock.findElement(By.id("lock-login")).getDomAttribute("href")).isEqualTo("/login");
        screenshot("dashboard-locked.png");

        new Select(browser.findElement(By.id("kind"))).selectByValue("process");
        type("execN", "23");
        type("fileSizes", "64KiB:2");
        new Select(browser.findElement(By.id("floor"))).selectByValue("off");
        long runs = json(get("/api/runs?size=1")).get("totalElements").asLong();
        browser.findElement(By.id("start-run")).click();

        wait.until(b -> b.getCurrentUrl().contains("/login?then="));
        assertThat(browser.findElement(By.id("form-kept")).getText()).startsWith("Starting a run needs this browser unlocked.");
        assertThat(json(get("/api/runs?size=1")).get("totalElements").asLong()).as("nothing queued while locked").isEqualTo(runs);
        type("token", apiToken());
        browser.findElement(By.id("unlock")).click();

        wait.until(b -> b.getCurrentUrl().startsWith(uri("/?").toString()));
        wait.until(b -> "on".equals(b.findElement(By.tagName("html")).getDomAttribute("data-live")));
        assertThat(browser.findElement(By.id("lock")).getText()).isEqualTo("Unlocked: this browser may start and cancel runs.");
        assertThat(browser.findElement(By.id("execN")).getDomProperty("value")).isEqualTo("23");
        assertThat(browser.findElement(By.id("fileSizes")).getDomProperty("value")).isEqualTo("64KiB:2");
        assertThat(new Select(browser.findElement(By.id("floor"))).getFirstSelectedOption().getDomAttribute("value")).isEqualTo("off");
        screenshot("dashboard-unlocked.png");
    }

    private static void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    private static void screenshot(String name) throws IOException {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
