package dev.spacebench.space.container;

import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.KindDiagnosis;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.limits.Cgroups;
import dev.spacebench.space.limits.CpuSet;
import dev.spacebench.space.limits.CpuShape;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.HostRoot;
import dev.spacebench.space.local.LocalSpaceProvider;
import dev.spacebench.space.local.SpaceDir;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The {@code container} kind: the agent in a podman or docker container with no network, on a
 * unix socket in a directory shared with the host (which also holds its work directory and the
 * bulk lane), CPUs and memory enforced by the engine.
 *
 * <p>The root file system is the image {@code spacebench.space.container.image} (built from
 * {@code docker/space/Dockerfile}), or, when that is blank and the tool is podman, the host's OS
 * read-only ({@link ContainerCommand}); no registry is needed for the latter.
 *
 * <p>Host layout per Space: {@code ROOT/container-N/} holds the token, the engine's stderr log,
 * the root skeleton and {@code space/} with {@code agent.sock}, {@code work/}, {@code bulk/}.
 */
@Component
public class ContainerSpaceProvider extends LocalSpaceProvider {

    public static final String KIND = SpaceKinds.CONTAINER;
    /** The agent jar's path inside the image (see docker/space/Dockerfile). */
    static final String IMAGE_JAR = "/opt/spacebench/spacebench.jar";
    private static final Duration CLI_TIMEOUT = Duration.ofSeconds(30);
    /** Checking the engine takes a podman/docker call; a run submission should not pay it each time. */
    private static final Duration AVAILABILITY_TTL = Duration.ofSeconds(60);

    private final String configuredCli;
    private final String image;
    private volatile Availability availability;
    private volatile long availabilityCheckedAt;

    /**
     * @param cli {@code spacebench.space.container.cli}: podman, docker, a path, or blank for podman, then docker
     * @param image {@code spacebench.space.container.image}: an image in the engine's local store,
     *     or blank for the host's OS (podman only)
     */
    @Autowired
    public ContainerSpaceProvider(SpacesSettings spaces, ContainerSettings container) {
        this(spaces.root(), container.cli(), container.image());
    }

    public ContainerSpaceProvider(Path root, String cli, String image) {
        super(root);
        this.configuredCli = cli;
        this.image = image == null || image.isBlank() ? null : image.trim();
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        long now = System.nanoTime();
        Availability known = availability;
        if (known == null || now - availabilityCheckedAt > AVAILABILITY_TTL.toNanos()) {
            known = check();
            availability = known;
            availabilityCheckedAt = now;
        }
        return known;
    }

    private Availability check() {
        Optional<ContainerCli> found = ContainerCli.find(configuredCli);
        if (found.isEmpty()) {
            return configuredCli == null || configuredCli.isBlank()
                    ? Availability.no("neither podman nor docker found on PATH", "install the podman and runc packages")
                    : Availability.no("spacebench.space.container.cli=" + configuredCli + " not found",
                            "install it, or set spacebench.space.container.cli to podman, docker or a path");
        }
        ContainerCli cli = found.get();
        if (image == null && !cli.isPodman()) {
            return Availability.no(cli.name() + " cannot run the host's OS (no --rootfs)",
                    "set spacebench.space.container.image to an image built from docker/space/Dockerfile");
        }
        ContainerCli.Result info = cli.run(CLI_TIMEOUT, "info");
        if (!info.ok()) {
            return Availability.no(cli.name() + " info failed, so no container engine answers: " + info.lastLine(),
                    KindDiagnosis.CONTAINER_FIX);
        }
        if (image != null) {
            ContainerCli.Result exists = cli.run(CLI_TIMEOUT, "image", "inspect", "--format", "{{.Id}}", image);
            if (!exists.ok()) {
                return Availability.no("image " + image + " is not in " + cli.name() + "'s local store", "build it with `./mvnw -B package "
                        + "-DskipTests && " + cli.name() + " build -t " + image + " -f docker/space/Dockerfile .`");
            }
        }
        return Availability.yes();
    }

    @Override
    public boolean agentOnUnixSocket() {
        return true;
    }

    @Override
    protected Launched launch(SpaceDir dir, SpaceSpec spec, Duration readyTimeout, Launch launch) throws IOException, SpaceException {
        ContainerCli cli = ContainerCli.find(configuredCli).orElseThrow(() -> new SpaceException(availability().reason()));
        String name = containerName(dir.id());
        launch.first(removeContainer(cli, name));
        List<String> agent = new ArrayList<>(image == null ? AgentLauncher.command(spec.memoryMiB())
                : imageCommand(spec.memoryMiB()));
        agent.addAll(dir.agentArguments("unix:" + dir.socket()));
        CpuShape cpus = spec.cpus() == null ? null : CpuShape.of(spec.cpus(), CpuSet.allowed());
        Path rootfs = image == null ? HostRoot.skeleton(dir.dir().resolve("rootfs")) : null;
        List<String> command = new ContainerCommand(cli, name, dir.shared(), dir.work(), dir.token().path(), image, rootfs,
                AgentLauncher.hostPaths(), cpus, spec.memoryMiB(), agent).argv();

        AgentProcess started = AgentProcess.start(command, dir.dir(), dir.log(), readyTimeout);
        launch.ready(started);

        SpaceFacts.Builder facts = SpaceFacts.builder(cli.name() + " container: own pid, mount, network, uts and ipc namespaces, read-only root ("
                + (image == null ? "the host's /usr, the JVM and the agent's class path, read-only" : "image " + image)
                + "); root inside is root outside unless the engine runs rootless");
        facts.network(SpaceFacts.Transport.LOOPBACK_TCP, "none (--network none); the agent listens on " + started.address());
        facts.detail("pid", Long.toString(started.process().pid()));
        facts.detail("container", name);
        agentPid(cli, name).ifPresent(pid -> facts.detail("agent pid", Long.toString(pid)));
        facts.detail("directory", dir.dir().toString());
        facts.detail("shared directory", dir.shared() + " (read-write, same path inside; holds the bulk lane)");
        facts.shape(spec.describeShape(), enforced(cpus, spec.memoryMiB(), facts.detail("agent pid"), cli.name()), null);
        return new Launched(started.target(), facts.build());
    }

    /** The container's processes are the engine's, not ours: ask the engine (none counted as killed here). */
    @Override
    public int removeLeftover(String id) {
        ContainerCli.find(configuredCli).ifPresent(cli -> removeContainer(cli, containerName(id)).run());
        return 0;
    }

    private static String containerName(String id) {
        return "spacebench-" + id;
    }

    /** The image's own java (on its PATH) and the agent jar baked into it. */
    private static List<String> imageCommand(Long memoryMiB) {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(AgentLauncher.jvmOptions(memoryMiB));
        command.addAll(List.of("-jar", IMAGE_JAR, "agent"));
        return command;
    }

    private static Optional<Long> agentPid(ContainerCli cli, String name) {
        ContainerCli.Result pid = cli.run(CLI_TIMEOUT, "inspect", "--format", "{{.State.Pid}}", name);
        try {
            long value = Long.parseLong(pid.output().trim());
            return value > 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** What the engine was told, and for memory what the kernel really has for the agent. */
    private static String enforced(CpuShape cpus, Long memoryMiB, String agentPid, String cli) {
        List<String> parts = new ArrayList<>();
        if (cpus != null) {
            parts.add(cpus.describeAffinity(CpuSet.allowed().size(), cli + " --cpuset-cpus"));
            if (cpus.quota() != null) {
                parts.add("CPU quota " + cpus.quota() + " CPUs (" + cli + " --cpus)");
            }
        }
        if (memoryMiB != null) {
            OptionalLong limit = agentPid == null ? OptionalLong.empty()
                    : Optional.ofNullable(Cgroups.of(Long.parseLong(agentPid), "memory").place())
                            .map(Cgroups.Place::memoryLimit).orElse(OptionalLong.empty());
            parts.add(limit.isPresent() ? "memory limit " + (limit.getAsLong() >> 20) + " MiB (" + cli + " --memory, read back from the agent's cgroup)"
                    : "memory limit " + memoryMiB + " MiB asked of " + cli + " (--memory); not confirmed in the agent's cgroup");
        }
        return parts.isEmpty() ? "none" : String.join("; ", parts);
    }

    /** The container goes first: its processes are the engine's children, not ours. */
    private static Runnable removeContainer(ContainerCli cli, String name) {
        return () -> cli.run(CLI_TIMEOUT, "rm", "--force", "--time", "0", name);
    }
}
