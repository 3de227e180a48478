package dev.spacebench;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

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
