package dev.spacebench.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class HostSpawnFloorTest {

    @Test
    void spawnsTrueNTimes() throws Exception {
        HostSpawnFloor.Result result = HostSpawnFloor.run(HostSpawnFloor.TRUE, 30, 5);

        assertThat(result.argv()).containsExactly("true");
        assertThat(LongStream.of(result.samplesNs()).boxed().toList()).hasSize(30).allMatch(ns -> ns > 0);
        // Even a slow VM starts `true` well within a second.
        assertThat(LongStream.of(result.samplesNs()).boxed().toList()).allMatch(ns -> ns < 1_000_000_000L);
    }

    @Test
    void spawnsAShellToo() throws Exception {
        HostSpawnFloor.Result result = HostSpawnFloor.run(HostSpawnFloor.SH_C_TRUE, 10, 2);

        assertThat(result.argv()).containsExactly("sh", "-c", "true");
        assertThat(LongStream.of(result.samplesNs()).boxed().toList()).hasSize(10).allMatch(ns -> ns > 0);
    }

    @Test
    void saysWhichLaunchMechanismRanAndWhetherItIsTheAgents() throws Exception {
        HostSpawnFloor.Result result = HostSpawnFloor.run(HostSpawnFloor.TRUE, 1, 0);

        // This host has glibc 2.36, pidfd_open and JNA: the agent's Exec code spawns natively here,
        // in this JVM and in an agent alike.
        assertThat(result.launchMechanism()).isEqualTo("posix_spawn+pidfd (native)");
        assertThat(result.agentLaunchMechanism()).isEqualTo("posix_spawn+pidfd (native)");
        assertThat(result.matchesAgent()).isTrue();
    }

    @Test
    void samplesMatchTheAgentsOnlyUnderTheSameMechanism() {
        long[] none = new long[0];
        assertThat(new HostSpawnFloor.Result(HostSpawnFloor.TRUE, "VFORK", "vfork", none).matchesAgent()).isTrue();
        assertThat(new HostSpawnFloor.Result(HostSpawnFloor.TRUE, "POSIX_SPAWN", "VFORK", none).matchesAgent()).isFalse();
        assertThat(new HostSpawnFloor.Result(HostSpawnFloor.TRUE, "JDK default", "VFORK", none).matchesAgent()).isFalse();
    }

    @Test
    void aFailingCommandIsAnError() {
        assertThatThrownBy(() -> HostSpawnFloor.run(List.of("false"), 1, 0))
                .isInstanceOf(IOException.class).hasMessageContaining("exited with 1");
        assertThatThrownBy(() -> HostSpawnFloor.run(List.of("/nonexistent/spacebench-no-such-program"), 1, 0))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> HostSpawnFloor.run(HostSpawnFloor.TRUE, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
