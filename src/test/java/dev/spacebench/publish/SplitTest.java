package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.run.MetricResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The file split: each transfer the agent timed gets a row (whole, in the Space, the rest); others none. */
class SplitTest {

    private static MetricResult result(String metric, long bytes, long p50, Long agent, Long rest) {
        MetricResult r = new MetricResult(1L, metric, 0, bytes, bytes > 0 ? "stream" : null, 10, 1, 0,
                p50, p50, p50, p50, p50, (double) p50, 0.0, null, null);
        r.setSplit(agent, rest);
        return r;
    }

    @Test
    void fileTransfersTheAgentTimedAreSplitLikeExecRoundTrips() {
        long mib16 = 16L << 20;
        Split split = Split.of(List.of(
                result("exec.true", 0, 2_000_000L, 900_000L, 1_100_000L),
                result("file.upload.16MiB", mib16, 50_000_000L, 30_000_000L, 20_000_000L),
                result("file.download.16MiB", mib16, 60_000_000L, null, null)));

        assertThat(split.exec()).extracting(Split.ExecSplit::metric).containsExactly("exec.true");
        assertThat(split.files()).hasSize(1);
        Split.FileSplit upload = split.files().get(0);
        assertThat(upload.metric()).isEqualTo("file.upload.16MiB");
        assertThat(upload.label()).isEqualTo("upload 16 MiB");
        assertThat(upload.roundTrip().ns()).isEqualTo(50_000_000L);
        assertThat(upload.inSpace().ns()).isEqualTo(30_000_000L);
        assertThat(upload.rest().ns()).isEqualTo(20_000_000L);
        assertThat(split.isEmpty()).isFalse();
        assertThat(Split.of(List.of(result("file.download.16MiB", mib16, 60_000_000L, null, null))).isEmpty()).isTrue();
    }

    private static MetricResult exec(String metric, long p50, long p99, long agent, long rest) {
        MetricResult r = new MetricResult(1L, metric, 0, 0, null, 300, 5, 0, p50, p50, p99, p99, p99, (double) p50, 0.0, null, null);
        r.setSplit(agent, rest);
        return r;
    }

    /** One sentence per exec metric with a tail split, with the figures written out by hand; where it grew more decides the verdict. */
    @Test
    void eachExecMetricSaysWhatItsTailIsMadeOf() {
        MetricResult trueCmd = exec("exec.true", 2_700_000L, 6_400_000L, 1_800_000L, 900_000L);
        // Tail: 4 samples at or above 6.4 ms: 2.1 ms in the Space (+0.3), 4.3 ms outside (+3.4); slowest 9.1 = 2.2 + 6.9.
        trueCmd.setTailSplit(6_400_000L, 4, 2_100_000L, 4_300_000L, 2_200_000L, 6_900_000L);
        MetricResult shC = exec("exec.sh_c", 3_000_000L, 9_000_000L, 2_000_000L, 1_000_000L);
        // Tail: 1 sample: 7.5 ms in the Space (+5.5), 1.5 ms outside (+0.5).
        shC.setTailSplit(9_000_000L, 1, 7_500_000L, 1_500_000L, 7_500_000L, 1_500_000L);
        MetricResult old = exec("exec.noop", 300_000L, 500_000L, 0, 0);

        Split split = Split.of(List.of(trueCmd, shC));

        assertThat(split.tail()).extracting(Split.TailLine::metric).containsExactly("exec.true", "exec.sh_c");
        assertThat(split.tail().get(0).text()).isEqualTo("true: the 4 round trips at or above its p99 (6.40 ms) spent 2.10 ms in the "
                + "Space and 4.30 ms in transport and harness (the p50 of each over those samples), against 1.80 ms and 900 µs at "
                + "p50 over all samples; the slowest (9.10 ms) spent 2.20 ms in the Space and 6.90 ms outside it. The tail comes "
                + "mostly from outside the Space: from p50 to the tail, the part outside it grew more than the command's own time.");
        assertThat(split.tail().get(1).text())
                .startsWith("sh -c true: the 1 round trip at or above its p99 (9.00 ms) spent 7.50 ms in the Space and 1.50 ms")
                .contains("over that sample", "the slowest (9.00 ms) spent 7.50 ms in the Space and 1.50 ms outside it.")
                .endsWith("The tail comes mostly from the command in the Space: from p50 to the tail, its own time grew more "
                        + "than the part outside it.");
        // A run stored before the tail split was kept: its split row, no tail sentence.
        MetricResult before = exec("exec.true", 2_700_000L, 6_400_000L, 1_800_000L, 900_000L);
        assertThat(Split.of(List.of(before)).exec()).hasSize(1);
        assertThat(Split.of(List.of(before)).tail()).isEmpty();
        assertThat(old.getTailN()).isNull();
    }

    private static MetricResult plain(String metric, long p50, long p99) {
        return new MetricResult(1L, metric, 0, 0, null, 300, 5, 0, p50, p50, p99, p99, p99, (double) p50, 0.0, null, null);
    }

    /** The no-op's p99/p50 against the bare ping's, only when the run has both. */
    @Test
    void theNoOpsTailIsSetAgainstTheBarePingsFromTheSameRun() {
        MetricResult noop = plain("exec.noop", 300_000L, 1_830_000L);
        MetricResult ping = plain("floor.grpc.noop", 200_000L, 350_000L);

        // 1.83 / 0.300 = 6.10; 0.350 / 0.200 = 1.75; 6.10 / 1.75 = 3.4857…
        assertThat(Split.of(List.of(noop, ping)).noopTail()).isEqualTo("no-op: its p99 is 6.10× its p50 (1.83 ms against 300 µs), "
                + "where the bare gRPC ping on the host in the same run has a p99 of 1.75× its p50 (350 µs against 200 µs): relative "
                + "to its p50, the no-op's tail is 3.49× as long as the host's own. The no-op runs nothing in the Space: what its "
                + "tail adds is the agent's serving path and the way into the Space.");
        assertThat(Split.of(List.of(noop)).noopTail()).isNull();
        assertThat(Split.of(List.of(ping)).noopTail()).isNull();
        assertThat(Split.of(List.of(noop, ping)).isEmpty()).isFalse();
    }

    private static dev.spacebench.environment.Environment withHostGc(long count, long timeNs) {
        return new dev.spacebench.environment.Environment(null, null, java.util.Map.of(), "test", 0, "test", null,
                new dev.spacebench.environment.JvmGc(count, timeNs));
    }

    /** Under the tail sentences: whether the app JVM's own collections can be in the tail. */
    @Test
    void theTailSaysWhetherTheHostJvmCollectedDuringTheLoops() {
        MetricResult trueCmd = exec("exec.true", 2_700_000L, 6_400_000L, 1_800_000L, 900_000L);
        trueCmd.setTailSplit(6_400_000L, 4, 2_100_000L, 4_300_000L, 2_200_000L, 6_900_000L);

        assertThat(Split.of(List.of(trueCmd), withHostGc(3, 12_400_000L)).hostGc()).isEqualTo("The JVM that times the round "
                + "trips (the run's driver) collected garbage 3 times during the loops (12 ms in all): a tail sample outside the Space can be the "
                + "client's own GC pause, not the Space's.");
        assertThat(Split.of(List.of(trueCmd), withHostGc(0, 0)).hostGc()).startsWith("No garbage collection of the JVM that times the round trips (the run's driver)");
        assertThat(Split.of(List.of(trueCmd)).hostGc()).as("no environment").isNull();
        assertThat(Split.of(List.of(plain("file.upload.1MiB", 1, 1)), withHostGc(3, 1)).hostGc()).as("no tail sentence").isNull();
    }
}
