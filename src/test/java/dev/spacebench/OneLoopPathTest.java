package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 28, one path: every timed loop of a run (a Space's loops, the floor, each concurrency sweep
 * level) runs in the measuring driver's JVM, so only the driver's code starts one. Read from the
 * sources: a loop started anywhere else would be a second, in-process path (as the floor in
 * {@code RunExecution} and the sweep's {@code SweepLevel} once were). The driver's own runs are
 * tested in DriverProcessTest and DriverTasksTest.
 */
class OneLoopPathTest {

    private static final Path MAIN = Path.of("src/main/java/dev/spacebench");
    /** What starts a timed loop: a Space's loops, the floor's, a sweep level's. */
    private static final Pattern STARTS_A_LOOP = Pattern.compile("new Measurement\\(|Measurement\\.floor\\(|new SweepLoops\\(");

    @Test
    void onlyTheDriverStartsATimedLoop() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            assertThat(files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return STARTS_A_LOOP.matcher(Files.readString(f)).find();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).map(f -> MAIN.relativize(f).toString()).sorted().toList())
                    .as("files that start a timed loop (the driver's main, and the sweep level's loops it runs)")
                    .containsExactly("driver/DriverMain.java", "measure/SweepLoops.java");
        }
    }
}
