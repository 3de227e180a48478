package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.agent.AgentOptions;
import dev.spacebench.agent.AgentServer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The app's agent channels, made by Spring gRPC's channel factory as a run makes them, carry no
 * Micrometer observation per call: the loops time these calls, and an observation cost 5 KB of
 * heap and 40–60 µs of CPU per round trip.
 */
class AgentChannelsObservationTest extends AppTestSupport {

    @Autowired
    AgentChannels channels;

    @Autowired
    ObservationRegistry observations;

    @Test
    void callsThroughTheAppsAgentChannelsStartNoObservation() throws Exception {
        // Every observation the app's registry starts from here on, whatever its name.
        List<String> started = new CopyOnWriteArrayList<>();
        ObservationHandler<Observation.Context> counter = new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                started.add(context.getName() + " " + context.getContextualName() + " on " + Thread.currentThread().getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        };
        observations.observationConfig().observationHandler(counter);
        Path dir = Files.createTempDirectory("observation");
        AgentServer agent = AgentServer.start(AgentOptions.parse(List.of("--listen", "127.0.0.1:0",
                "--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString())), "t0ken");
        try (AgentChannel channel = channels.open(agent.target(), "t0ken", null, 1 << 20)) {
            for (int i = 0; i < 3; i++) {
                channel.ping(Duration.ofSeconds(10));
            }
            assertThat(channel.exec(List.of("true"), Duration.ofSeconds(10)).exitCode()).isZero();
        } finally {
            agent.stop();
        }
        assertThat(started).as("observations started by 3 pings and an exec through the app's channel")
                .noneMatch(s -> s.contains("grpc") || s.contains("Agent/"));
    }
}
