package dev.spacebench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium and its WebDriver, which the browser tests drive. A class that needs
 * them says {@code @ExtendWith(Chromium.Required.class)}: without them its tests are skipped before
 * anything starts, the reason naming the package, and Surefire counts them as skipped (an assumption
 * in {@code @BeforeAll} would leave them counted as "Tests run: 0").
 */
public final class Chromium {

    public static final Path BINARY = Path.of("/usr/bin/chromium");
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {
    }

    /** Why the browser tests cannot run here, naming the Debian package to install; null when they can. */
    public static String missing() {
        if (!Files.isExecutable(BINARY)) {
            return "needs Debian's chromium package (" + BINARY + "): apt-get install -y chromium chromium-driver";
        }
        if (!Files.isExecutable(DRIVER)) {
            return "needs Debian's chromium-driver package (" + DRIVER + "): apt-get install -y chromium-driver";
        }
        return null;
    }

    /**
     * Starts headless Chromium through its driver on a free port, with its profile in {@code profile}
     * (the caller's to delete after {@link WebDriver#quit()}) and a window of this size in CSS pixels.
     */
    public static WebDriver start(Path profile, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        return new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString())).usingAnyFreePort().build(), options);
    }

    /** Skips the annotated class or method when {@link #missing()} gives a reason. */
    public static final class Required implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String missing = missing();
            return missing == null ? ConditionEvaluationResult.enabled("Chromium and chromedriver are installed")
                    : ConditionEvaluationResult.disabled(missing);
        }
    }
}
