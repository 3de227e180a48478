package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's heap: a fixed young generation within the heap, and within half a Space's memory. */
class AgentLauncherTest {

    private static long mib(List<String> options, String flag) {
        return options.stream().filter(o -> o.startsWith(flag)).map(o -> Long.parseLong(o.substring(flag.length(), o.length() - 1)))
                .findFirst().orElseThrow(() -> new AssertionError(flag + " missing from " + options));
    }

    @TempDir
    Path dir;

    @Test
    void transparentHugePagesAreAskedForOnlyWhereTheKernelGivesThemOnRequest() throws Exception {
        assertThat(AgentLauncher.transparentHugePagesOnRequest(Files.writeString(dir.resolve("a"), "always [madvise] never\n"))).isTrue();
        assertThat(AgentLauncher.transparentHugePagesOnRequest(Files.writeString(dir.resolve("b"), "[always] madvise never\n"))).isTrue();
        assertThat(AgentLauncher.transparentHugePagesOnRequest(Files.writeString(dir.resolve("c"), "always madvise [never]\n"))).isFalse();
        assertThat(AgentLauncher.transparentHugePagesOnRequest(dir.resolve("missing"))).isFalse();
        // And the agent's options follow this host's setting, read here on its own.
        Path host = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean given = Files.isReadable(host) && !Files.readString(host).contains("[never]");
        assertThat(AgentLauncher.jvmOptions(null).contains("-XX:+UseTransparentHugePages")).isEqualTo(given);
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
