package dev.spacebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code bench --help} and a usage error, without a server: picocli's own warnings go to System.err. */
class BenchHelpTest {

    @Test
    void helpAndUsageErrorsPrintNoPicocliWarning() {
        PrintStream systemErr = System.err;
        ByteArrayOutputStream stray = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(stray, true, StandardCharsets.UTF_8));
        try {
            PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
            assertThat(BenchCommand.execute(new String[] {"--help"}, stdout, stderr, false)).isZero();
            assertThat(BenchCommand.execute(new String[] {"--bogus"}, stdout, stderr, false)).isEqualTo(2);
        } finally {
            System.setErr(systemErr);
        }
        String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8) + stray.toString(StandardCharsets.UTF_8);
        assertThat(all).doesNotContain("picocli WARN").doesNotContain("Could not format");
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: spacebench bench [-h]").contains("up to 10% slower", "publish");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unknown option: '--bogus'", "Usage: spacebench bench");
    }
}
