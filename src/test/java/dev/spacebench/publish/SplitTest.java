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
}
