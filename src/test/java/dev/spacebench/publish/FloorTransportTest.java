package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.run.MetricResult;
import dev.spacebench.space.SpaceFacts;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The floor sentence reads the Space's transport from the typed facts, not from the network's wording. */
class FloorTransportTest {

    private static MetricResult result(String metric, long p50) {
        return new MetricResult(1L, metric, 0, 0, null, 100, 0, 0, p50, p50, p50, p50, p50, (double) p50, 0.0, null, null);
    }

    private final List<MetricResult> results = List.of(result(ExecRoundTrip.NOOP.id(), 300_000),
            result(FloorMetric.GRPC_NOOP.id(), 200_000));

    @Test
    void aUnixSocketSpaceIsNotComparedAsIfItUsedLoopbackTcp() {
        assertThat(Floor.aboveFloor(results, "attach", SpaceFacts.Transport.UNIX_SOCKET))
                .singleElement().asString().contains("not the same transport").contains("added 100 µs (+50.0%)");
    }

    @Test
    void aLoopbackSpaceIsComparedPlainly() {
        assertThat(Floor.aboveFloor(results, "process", SpaceFacts.Transport.LOOPBACK_TCP))
                .singleElement().asString().doesNotContain("not the same transport").contains("added 100 µs (+50.0%)");
    }
}
