package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpaceFactsTest {

    @Test
    void theStoredMapReadsBackAsTheSameTypedFacts() {
        SpaceFacts facts = SpaceFacts.builder("none")
                .network(SpaceFacts.Transport.UNIX_SOCKET, "unix socket /run/agent.sock")
                .shape("cpus 2", "none", "cpus: no cgroup v2 here")
                .detail("pid", "42")
                .build()
                .withLaunchMechanism("VFORK");

        Map<String, String> stored = facts.toMap();

        assertThat(stored).containsEntry("transport", "UNIX_SOCKET").containsEntry("launch mechanism", "VFORK")
                .containsEntry("shape not enforced", "cpus: no cgroup v2 here").containsEntry("pid", "42");
        assertThat(SpaceFacts.fromMap(stored)).isEqualTo(facts);
    }

    @Test
    void aRunStoredBeforeTheRecordKeepsItsFactsAndHasNoTransport() {
        // As the providers wrote it before the typed record: plain labels, no "transport".
        Map<String, String> legacy = new LinkedHashMap<>();
        legacy.put("isolation", "none: a child process of the app on the same host");
        legacy.put("pid", "1234");
        legacy.put("network", "loopback TCP 127.0.0.1:40000");
        legacy.put("launch mechanism", "VFORK");
        legacy.put("shape asked", "none");
        legacy.put("shape enforced", "none (the process kind cannot limit CPU or memory)");

        SpaceFacts facts = SpaceFacts.fromMap(legacy);

        assertThat(facts.transport()).isNull();
        assertThat(facts.network()).isEqualTo("loopback TCP 127.0.0.1:40000");
        assertThat(facts.launchMechanism()).isEqualTo("VFORK");
        assertThat(facts.shapeAsked()).isEqualTo("none");
        assertThat(facts.details()).containsExactly(Map.entry("pid", "1234"));
        assertThat(facts.toMap()).containsExactlyInAnyOrderEntriesOf(legacy);
    }
}
