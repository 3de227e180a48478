package dev.spacebench.space.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.local.LocalSpaceContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * The container kind with the tool this host has (podman, else docker) and, unless
 * {@code spacebench.space.container.image} names an image, the host's OS as its root.
 */
class ContainerSpaceProviderTest extends LocalSpaceContract {

    private static final String CLI = System.getProperty("spacebench.space.container.cli", "");
    private static final String IMAGE = System.getProperty("spacebench.space.container.image", "");

    @Override
    protected SpaceProvider provider(Path root) {
        return new ContainerSpaceProvider(root, CLI, IMAGE);
    }

    @Override
    protected SpaceSpec spec() {
        return new SpaceSpec(ContainerSpaceProvider.KIND, 1.0, 256L);
    }

    /** The engine's processes for the container (conmon, the agent) are not our descendants. */
    @Override
    protected Leftovers snapshot(Space space) {
        ContainerCli cli = cli();
        String[] pids = cli.run(Duration.ofSeconds(30), "inspect", "--format", cli.isPodman() ? "{{.State.Pid}} {{.State.ConmonPid}}"
                : "{{.State.Pid}}", space.facts().get("container")).output().trim().split("\\s+");
        long[] others = Arrays.stream(pids).mapToLong(Long::parseLong).filter(pid -> pid > 0).toArray();
        return Leftovers.snapshot(Long.parseLong(space.facts().get("pid")), Path.of(space.facts().get("directory")), space.id(), others);
    }

    @Override
    protected long agentPid(Space space, Leftovers leftovers) {
        return Long.parseLong(space.facts().get("agent pid"));
    }

    @Override
    protected void assertKindLeftNothing(Space space) {
        ContainerCli.Result left = cli().run(Duration.ofSeconds(30), "ps", "--all", "--filter", "name=" + space.facts().get("container"),
                "--format", "{{.Names}}");
        assertThat(left.ok()).as(left.output()).isTrue();
        assertThat(left.output().trim()).as("containers left").isEmpty();
        assertThat(space.facts().get("shape enforced")).contains("memory limit 256 MiB (");
    }

    private static ContainerCli cli() {
        return ContainerCli.find(CLI).orElseThrow();
    }
}
