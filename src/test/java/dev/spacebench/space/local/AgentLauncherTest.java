package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent's heap: a fixed young generation within the heap, and within half a Space's memory. */
class AgentLauncherTest {

    private static long mib(List<String> options, String flag) {
        return options.stream().filter(o -> o.startsWith(flag)).map(o -> Long.parseLong(o.substring(flag.length(), o.length() - 1)))
                .findFirst().orElseThrow(() -> new AssertionError(flag + " missing from " + options));
    }

    @Test
    void youngGenerationIsFixedAndFitsTheHeap() {
        List<String> unlimited = AgentLauncher.jvmOptions(null);
        assertThat(unlimited).contains("-XX:+UseSerialGC");
        assertThat(mib(unlimited, "-Xmn")).isEqualTo(48);
        assertThat(mib(unlimited, "-Xms")).isEqualTo(64);
        assertThat(mib(unlimited, "-Xmx")).isEqualTo(512);

        // A Space with 40 MiB: heap at most 20 MiB, young half of that, below the initial heap.
        List<String> small = AgentLauncher.jvmOptions(40L);
        assertThat(mib(small, "-Xmx")).isEqualTo(20);
        assertThat(mib(small, "-Xmn")).isEqualTo(10);
        assertThat(mib(small, "-Xms")).isEqualTo(20);
    }
}
