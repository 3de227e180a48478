package dev.spacebench.space.container;

import dev.spacebench.space.ContainerExecAccess;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SshAccess;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /**
     * The README's route to the kind: podman picks itself over docker when both are on PATH, needs
     * no daemon, and runs the host's OS read-only, so there is no image to build.
     */
    static final String PODMAN_FIX = "apt-get install podman runc (podman is used before docker, needs no daemon and runs "
            + "the host's OS read-only: no image to build; on hosts without systemd also /etc/containers/containers.conf as "
            + "docs/kinds.md gives it)";

    private final String configuredCli;
    private final String image;
    private final ContainerRuntimes runtimes = new ContainerRuntimes();
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
                    ? Availability.no("neither podman nor docker found on PATH", PODMAN_FIX)
                    : Availability.no("spacebench.space.container.cli=" + configuredCli + " not found",
                            "install it, or set spacebench.space.container.cli to podman, docker or a path");
        }
        ContainerCli cli = found.get();
        // Asked first: a docker CLI without a daemon (common on CI images and in containers) is
        // better served by podman, which needs neither a daemon nor an image, than by building one.
        ContainerCli.Result info = cli.run(CLI_TIMEOUT, "info");
        if (!info.ok()) {
            return cli.isPodman()
                    ? Availability.no(cli.name() + " info failed, so no container engine answers: " + info.lastLine(),
                            KindDiagnosis.CONTAINER_FIX)
                    : Availability.no(cli.name() + " is installed but no " + cli.name() + " daemon answers (" + cli.name()
                            + " info: " + info.lastLine() + ")", image == null
                            ? PODMAN_FIX + "; or start the " + cli.name() + " daemon and set spacebench.space.container.image "
                                    + "to an image built from docker/space/Dockerfile"
                            : "start the " + cli.name() + " daemon; or " + PODMAN_FIX + ", and leave spacebench.space.container.image "
                                    + "blank (it is " + image + ")");
        }
        if (image == null && !cli.isPodman()) {
            return Availability.no(cli.name() + " cannot run the host's OS (no --rootfs), and spacebench.space.container.image is blank",
                    PODMAN_FIX + "; or set spacebench.space.container.image to an image built from docker/space/Dockerfile");
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

    /** The agent, the engine's own exec and cp, and SSH where the host's sshd can run in the container ({@link ContainerSsh}). */
    @Override
    protected Set<String> servedChannels() {
        return sshUnavailable().isEmpty() ? Set.of(SpaceChannels.AGENT, SpaceChannels.CONTAINER_EXEC, SpaceChannels.SSH)
                : Set.of(SpaceChannels.AGENT, SpaceChannels.CONTAINER_EXEC);
    }

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        return super.channelsUnsupported(channels).map(why -> channels.contains(SpaceChannels.SSH)
                ? why + sshUnavailable().map(missing -> " (ssh: " + missing + ")").orElse("") : why);
    }

    private Optional<String> sshUnavailable() {
        return ContainerSsh.unavailable(ContainerCli.find(configuredCli).orElse(null), image);
    }

    /** {@code space.runtime}: one of {@link ContainerRuntimes#KNOWN}, and one that runs here. */
    @Override
    public Map<String, String> check(SpaceSpec spec) {
        String runtime = spec.runtime();
        if (runtime == null) {
            return Map.of();
        }
        if (!ContainerRuntimes.KNOWN.contains(runtime)) {
            return Map.of("space.runtime", "must be one of " + ContainerRuntimes.KNOWN + " (default " + ContainerRuntimes.RUNC
                    + "), was '" + (runtime.length() > 40 ? runtime.substring(0, 40) + "…" : runtime) + "'");
        }
        Availability here = runtimes.availability(runtime, ContainerCli.find(configuredCli).orElse(null));
        return here.available() ? Map.of() : Map.of("space.runtime", runtime + " cannot run here: " + here.reason()
                + (here.fix().isEmpty() ? "" : "; fix: " + here.fix()));
    }

    /** The runtimes besides the engine's default one, checked after the kind's own check passed (runsc makes a container). */
    @Override
    public void checkOptions() {
        ContainerCli.find(configuredCli).ifPresent(runtimes::check);
    }

    @Override
    public Map<String, Availability> runtimes() {
        ContainerCli cli = ContainerCli.find(configuredCli).orElse(null);
        Map<String, Availability> known = new LinkedHashMap<>();
        for (String runtime : ContainerRuntimes.KNOWN) {
            known.put(runtime, runtimes.availability(runtime, cli));
        }
        return known;
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
        String runtime = ContainerRuntimes.of(spec.runtime());
        ContainerSsh ssh = launch.wants(SpaceChannels.SSH) ? ContainerSsh.prepare(dir.dir(), dir.work()) : null;
        ContainerCommand.Extra extra = new ContainerCommand.Extra(ContainerRuntimes.engineOptions(runtime, ssh != null),
                ssh == null ? ContainerCommand.Extra.NONE.network() : ssh.network(), ssh == null ? List.of() : ssh.mounts());
        List<String> command = new ContainerCommand(cli, name, dir.shared(), dir.work(), dir.token().path(), image, rootfs,
                AgentLauncher.hostPaths(), cpus, spec.memoryMiB(), agent, extra).argv();

        AgentProcess started = AgentProcess.start(command, dir.dir(), dir.log(), readyTimeout);
        launch.ready(started);
        launch.containerExec(new ContainerExecAccess(cli.binary(), name, dir.work().toString()));
        // After the agent is ready: space.ready times the agent, and the SSH server's start is not in it.
        SshAccess access = null;
        if (ssh != null) {
            access = ssh.start(cli, name, readyTimeout);
            launch.ssh(access);
        }

        SpaceFacts.Builder facts = SpaceFacts.builder(cli.name() + " container: own pid, mount, network, uts and ipc namespaces, read-only root ("
                + (image == null ? "the host's /usr, the JVM and the agent's class path, read-only" : "image " + image)
                + "); root inside is root outside unless the engine runs rootless"
                + (ContainerRuntimes.RUNSC.equals(runtime) ? "; gVisor (runsc): the container's system calls are served by its user-space kernel" : ""));
        facts.network(SpaceFacts.Transport.LOOPBACK_TCP, access == null ? "none (--network none); the agent listens on " + started.address()
                : cli.name() + "'s default network, for SSH: port " + ContainerSsh.PORT_INSIDE + " published on 127.0.0.1:" + access.port()
                        + " only; the agent listens on " + started.address());
        facts.detail("runtime", runtime + (ContainerRuntimes.RUNSC.equals(runtime)
                ? " (gVisor; " + String.join(" ", ContainerRuntimes.engineOptions(runtime, access != null)) + ")" : " (" + cli.name() + "'s default)"));
        if (access != null) {
            facts.detail("ssh", "OpenSSH sshd -D -e in the container (the host's /usr/sbin/sshd), published on " + access.host() + ":"
                    + access.port() + ", public-key authentication only, host and client keys made for this Space; gone with the container");
        }
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

    /** The engine's tool as this provider finds it, for tests in this package. */
    ContainerCli cliForTest() {
        return ContainerCli.find(configuredCli).orElseThrow();
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
