package dev.spacebench.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.environment.Environment;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.run.MetricResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The "added" sentence reads the Space's transport from the typed facts and the floor's ping transport from the
 * floor's own fact: a Space behind a unix socket set against a ping over TCP says they differ; one whose floor pinged
 * over its own unix socket, or a loopback Space, does not.
 */
class FloorTransportTest {

    private static MetricResult result(String metric, long p50) {
        return new MetricResult(1L, metric, 0, 0, null, 100, 0, 0, p50, p50, p50, p50, p50, (double) p50, 0.0, null, null);
    }

    private final List<MetricResult> results = List.of(result(ExecRoundTrip.NOOP.id(), 300_000),
            result(FloorMetric.GRPC_NOOP.id(), 200_000));

    private static Environment environment(String transport, String pingTransport) {
        return new Environment(null, null, Map.of("transport", transport), "test", 0, "test",
                pingTransport == null ? null : Map.of(Split.FLOOR_PING_TRANSPORT, pingTransport), null);
    }

    private String sentence(Environment environment) {
        return Split.of(results, environment).added().stream().map(Split.Added::text).reduce((a, b) -> a + "\n" + b).orElseThrow();
    }

    @Test
    void aUnixSocketSpaceIsNotComparedAsIfItUsedLoopbackTcp() {
        assertThat(sentence(environment("UNIX_SOCKET", "TCP loopback, to a server in a JVM of its own")))
                .contains("added 100 µs to no-op").contains("+50% of the floor").contains("not the same transport");
        assertThat(sentence(environment("UNIX_SOCKET", null))).as("a floor that did not say").contains("not the same transport");
    }

    @Test
    void aLoopbackSpaceOrAPingOnTheSpacesOwnSocketIsComparedPlainly() {
        assertThat(sentence(environment("LOOPBACK_TCP", "TCP loopback, to a server in a JVM of its own")))
                .contains("added 100 µs to no-op").doesNotContain("not the same transport");
        assertThat(sentence(environment("UNIX_SOCKET", "unix socket (the Space's transport), to a server in a JVM of its own")))
                .doesNotContain("not the same transport");
    }
}
