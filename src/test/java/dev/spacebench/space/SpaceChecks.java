package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.files.RandomFiles;
import dev.spacebench.files.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** What every kind must do once its Space is up: the round trips a run measures. */
public final class SpaceChecks {

    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SpaceChecks() {}

    /** Ping, Exec {@code true} and {@code sh -c true}, 1 MiB through the stream, 4 MiB through the bulk lane. */
    public static void roundTrips(AgentChannel channel, Path scratch) throws IOException {
        channel.ping(TIMEOUT);
        assertSucceeds(channel.exec(List.of("true"), TIMEOUT));
        assertSucceeds(channel.exec(List.of("sh", "-c", "true"), TIMEOUT));
        transfer(channel, scratch, "stream.bin", 1 << 20, Lane.STREAM);
        transfer(channel, scratch, "bulk.bin", 4 << 20, Lane.BULK);
    }

    /** Median of {@code n} Exec {@code true} round trips, in ns (after a few to warm up). */
    public static long execTrueP50(AgentChannel channel, int n) {
        for (int i = 0; i < 10; i++) {
            channel.exec(List.of("true"), TIMEOUT);
        }
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            channel.exec(List.of("true"), TIMEOUT);
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[n / 2];
    }

    private static void assertSucceeds(ExecResult result) {
        assertThat(result.exitCode()).as("exit code; stderr: %s", new String(result.stderr())).isZero();
        assertThat(result.timedOut()).isFalse();
    }

    private static void transfer(AgentChannel channel, Path scratch, String name, long size, Lane lane) throws IOException {
        Path source = scratch.resolve("up-" + name);
        Sha256.Result written = RandomFiles.write(source, size);
        FileRef expected = new FileRef(written.size(), written.sha256());
        assertThat(channel.upload(source, expected, name, lane, TIMEOUT)).isEqualTo(expected);
        Path back = scratch.resolve("down-" + name);
        assertThat(channel.download(name, expected, back, lane, TIMEOUT)).isEqualTo(expected);
        assertThat(Sha256.of(back)).isEqualTo(written);
        assertThat(channel.delete(name, TIMEOUT)).isTrue();
        Files.delete(source);
        Files.delete(back);
    }
}
