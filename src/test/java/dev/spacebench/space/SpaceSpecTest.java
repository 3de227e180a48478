package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SpaceSpecTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void readsRunsStoredBeforeTheAttachFields() {
        assertThat(json.readValue("{\"kind\":\"process\",\"cpus\":1.5,\"memoryMiB\":256}", SpaceSpec.class))
                .isEqualTo(new SpaceSpec("process", 1.5, 256L));
    }

    @Test
    void keepsTheAttachFieldsThroughJson() {
        SpaceSpec spec = new SpaceSpec("attach", null, null, "unix:/run/agent.sock", "secret", "/srv/bulk");
        assertThat(json.readTree(json.writeValueAsString(spec)).propertyNames())
                .containsExactly("kind", "cpus", "memoryMiB", "target", "token", "bulkDir", "channels", "runtime", "name");
        assertThat(json.readValue(json.writeValueAsString(spec), SpaceSpec.class)).isEqualTo(spec);
    }

    @Test
    void redactedHidesOnlyTheToken() {
        SpaceSpec spec = new SpaceSpec("attach", 2.0, null, "127.0.0.1:7000", "secret", null);
        assertThat(spec.redacted()).isEqualTo(new SpaceSpec("attach", 2.0, null, "127.0.0.1:7000", "(hidden)", null));
        assertThat(json.writeValueAsString(spec.redacted())).doesNotContain("secret");
        assertThat(new SpaceSpec("process", null, null).redacted()).isEqualTo(new SpaceSpec("process", null, null));
    }

    @Test
    void describesTheShapeAsked() {
        assertThat(new SpaceSpec("sandbox", 1.0, 256L).describeShape()).isEqualTo("cpus 1, memory 256 MiB");
        assertThat(new SpaceSpec("sandbox", 0.25, null).describeShape()).isEqualTo("cpus 0.25");
        assertThat(new SpaceSpec("sandbox", null, null).describeShape()).isEqualTo("none");
    }
}
