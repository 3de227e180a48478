package dev.spacebench.space.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChecks;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.limits.Cgroups;
import dev.spacebench.space.limits.CpuSet;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.local.LocalSpaceContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SandboxSpaceProviderTest extends LocalSpaceContract {

    @Override
    protected SpaceProvider provider(Path root) {
        return new SandboxSpaceProvider(root);
    }

    /** One CPU and 256 MiB: affinity always; the memory cgroup where this host delegates one. */
    @Override
    protected SpaceSpec spec() {
        return new SpaceSpec(SandboxSpaceProvider.KIND, 1.0, 256L);
    }

    @Override
    protected void assertKindLeftNothing(Space space) {
        Cgroups.Lookup memory = Cgroups.find("memory");
        if (memory.place() != null) {
            assertThat(memory.place().dir().resolve("spacebench-" + space.id())).as("the Space's memory cgroup").doesNotExist();
        }
    }

    @Test
    void recordsTheShapeAskedAndEnforced() throws Exception {
        Space space = provider.create(new SpaceSpec(SandboxSpaceProvider.KIND, 0.5, 300L), READY_TIMEOUT);
        try {
            assertThat(space.facts().get("shape asked")).isEqualTo("cpus 0.5, memory 300 MiB");
            String enforced = space.facts().get("shape enforced");
            if (Runtime.getRuntime().availableProcessors() > 1) {
                assertThat(enforced).contains("CPU affinity");
            }
            Cgroups.Lookup memory = Cgroups.find("memory");
            if (memory.place() != null) {
                assertThat(enforced).contains("memory limit 300 MiB");
            } else {
                assertThat(space.facts().get("shape not enforced")).contains("memory");
            }
            // What the kernel applies to the agent itself, not only what the facts say.
            long agentPid = Leftovers.snapshot(Long.parseLong(space.facts().get("pid")), root, space.id()).javaPid();
            Path proc = Path.of("/proc", Long.toString(agentPid));
            if (Runtime.getRuntime().availableProcessors() > 1) {
                assertThat(Files.readAllLines(proc.resolve("status"))).contains("Cpus_allowed_list:\t" + CpuSet.allowed().get(0));
            }
            if (memory.place() != null) {
                assertThat(Files.readAllLines(proc.resolve("cgroup")))
                        .anyMatch(line -> line.contains(":memory:") && line.endsWith("/spacebench-" + space.id()));
            }
        } finally {
            provider.delete(space);
        }
        assertKindLeftNothing(space);
    }

    @Test
    void theAgentSeesItsOwnHostNameNetworkAndFiles() throws Exception {
        Space space = provider.create(spec(), READY_TIMEOUT);
        try (AgentChannel channel = channels.open(space)) {
            assertThat(output(channel, "cat", "/proc/sys/kernel/hostname")).isEqualTo(space.id());
            // Only loopback: /proc/net/dev has two header lines and one line per interface.
            assertThat(output(channel, "cat", "/proc/net/dev").lines().skip(2).map(String::trim))
                    .allMatch(line -> line.startsWith("lo:"));
            // A host directory that was not bound is not there.
            assertThat(channel.exec(List.of("test", "-e", scratch.toString()), SpaceChecks.TIMEOUT).exitCode()).isEqualTo(1);
            // JNA unpacks its native library inside the sandbox (clean environment, /tmp a tmpfs): the
            // agent spawns natively there too, not through the JDK's fallback.
            assertThat(channel.info(SpaceChecks.TIMEOUT).process().launchMechanism()).isEqualTo("posix_spawn+pidfd (native)");
        } finally {
            provider.delete(space);
        }
    }

    private static String output(AgentChannel channel, String... argv) {
        ExecResult result = channel.exec(List.of(argv), SpaceChecks.TIMEOUT);
        assertThat(result.exitCode()).as("%s: %s", List.of(argv), new String(result.stderr(), StandardCharsets.UTF_8)).isZero();
        return new String(result.stdout(), StandardCharsets.UTF_8).trim();
    }
}
