package dev.spacebench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Collects every skipped test (a disabled condition, or an assumption that did not hold) with its
 * reason, and appends one line per test class and reason to the file named by the system property
 * {@code spacebench.skipReport} when the test JVM's plan ends. The build prints that file at the end of
 * {@code verify} (pom.xml), because Surefire's console says only "Skipped: N" and keeps the reasons in
 * its XML reports. Registered through {@code META-INF/services}; without the property it does nothing.
 * Several test JVMs (Surefire's passes, Failsafe) append to the same file, under a file lock.
 */
public final class SkipReport implements TestExecutionListener {

    /** test class → the reasons its tests were skipped for, in the order met, with how many tests each ({@link #WHOLE_CLASS}: the class). */
    private final Map<String, Map<String, Integer>> skipped = new LinkedHashMap<>();

    private static final int WHOLE_CLASS = 0;

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        note(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            note(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted without a reason"));
        }
    }

    private synchronized void note(TestIdentifier test, String reason) {
        String owner = test.getSource().map(SkipReport::className).orElse(test.getDisplayName());
        // A whole class skipped (its condition, or an assumption in @BeforeAll) is one entry, said as such.
        String why = reason == null || reason.isBlank() ? "no reason given" : reason.replaceFirst("^Assumption failed: ", "").strip();
        // Merged counts: a class skipped whole stays whole; tests skipped one by one add up.
        skipped.computeIfAbsent(owner, k -> new LinkedHashMap<>()).merge(why, test.isContainer() ? WHOLE_CLASS : 1,
                (was, one) -> was == WHOLE_CLASS || one == WHOLE_CLASS ? WHOLE_CLASS : was + one);
    }

    private static String className(TestSource source) {
        if (source instanceof MethodSource method) {
            return method.getClassName();
        }
        if (source instanceof ClassSource type) {
            return type.getClassName();
        }
        return source.toString();
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan plan) {
        String file = System.getProperty("spacebench.skipReport");
        if (file == null || skipped.isEmpty()) {
            return;
        }
        String pass = System.getProperty("spacebench.test.db", "h2").equals("postgres") ? " [PostgreSQL pass]" : "";
        Set<String> lines = new LinkedHashSet<>();
        skipped.forEach((owner, reasons) -> reasons.forEach((why, count) -> lines.add(
                "  " + owner.substring(owner.lastIndexOf('.') + 1) + pass + " ("
                        + (count == WHOLE_CLASS ? "every test" : count + (count == 1 ? " test" : " tests")) + "): " + why.replaceAll("\\s+", " "))));
        Path path = Path.of(file);
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            try (FileChannel out = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                 FileLock lock = out.lock()) {
                out.write(StandardCharsets.UTF_8.encode(String.join("\n", lines) + "\n"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the skip report " + file, e);
        }
    }
}
