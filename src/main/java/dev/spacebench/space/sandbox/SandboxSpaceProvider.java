package dev.spacebench.space.sandbox;

import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.limits.HostShape;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.LocalSpaceProvider;
import dev.spacebench.space.local.SpaceDir;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The {@code sandbox} kind: the agent inside bubblewrap (see {@link SandboxCommand}), with no
 * network of its own; it listens on a unix socket in the directory it shares with the host, which
 * also holds its work directory and the bulk lane. CPUs and memory are enforced where this host
 * allows it ({@link HostShape}).
 *
 * <p>Host layout per Space: {@code ROOT/sandbox-N/} holds the token, the agent's stderr log and
 * {@code space/} (shared, same path inside) with {@code agent.sock}, {@code work/}, {@code bulk/}.
 * Work and bulk share one mount, so a bulk import is a rename, as in the process kind.
 */
@Component
public class SandboxSpaceProvider extends LocalSpaceProvider {

    public static final String KIND = SpaceKinds.SANDBOX;

    @Autowired
    public SandboxSpaceProvider(SpacesSettings spaces) {
        this(spaces.root());
    }

    public SandboxSpaceProvider(Path root) {
        super(root);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return bwrap().isPresent() ? Availability.yes()
                : Availability.no("bwrap not found on PATH", "install the bubblewrap package (apt-get install bubblewrap)");
    }

    private static Optional<Path> bwrap() {
        return Executables.onPath("bwrap");
    }

    /**
     * Why a sandbox Space serves no SSH, for the 400 on {@code channels}: it has no network the host
     * can reach, and sshd cannot serve a unix socket as the agent does.
     */
    static final String NO_SSH = "ssh: not available: the sandbox has no network (bwrap --unshare-all gives it a network "
            + "namespace with only a loopback of its own, which the host cannot reach), and OpenSSH's sshd listens on TCP "
            + "only, not on a unix socket as the agent does";

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        return super.channelsUnsupported(channels).map(why -> channels.contains(SpaceChannels.SSH) ? why + " (" + NO_SSH + ")" : why);
    }

    @Override
    public boolean agentOnUnixSocket() {
        return true;
    }

    @Override
    protected Launched launch(SpaceDir dir, SpaceSpec spec, Duration readyTimeout, Launch launch) throws IOException, SpaceException {
        Path bwrap = bwrap().orElseThrow(() -> new SpaceException(availability().reason()));
        String id = dir.id();
        List<String> agent = new ArrayList<>(AgentLauncher.command(spec.memoryMiB()));
        agent.addAll(dir.agentArguments("unix:" + dir.socket()));
        List<Path> readOnly = new ArrayList<>(AgentLauncher.hostPaths());
        readOnly.add(dir.token().path());
        List<String> command = new SandboxCommand(bwrap, id, dir.shared(), dir.work(), readOnly, agent).argv();

        HostShape shape = HostShape.apply("spacebench-" + id, spec);
        launch.limits(shape);
        AgentProcess started = AgentProcess.start(shape.wrap(command), dir.dir(), dir.log(), readyTimeout);
        launch.ready(started);

        SpaceFacts.Builder facts = SpaceFacts.builder("bubblewrap: own user, pid, mount, network, uts, ipc and cgroup "
                        + "namespaces; host /usr, the JVM and the agent's class path read-only; clean environment")
                .network(SpaceFacts.Transport.LOOPBACK_TCP, "none (own empty network namespace); the agent listens on "
                        + started.address())
                .detail("pid", Long.toString(started.process().pid()))
                .detail("directory", dir.dir().toString())
                .detail("shared directory", dir.shared() + " (read-write, same path inside; holds the bulk lane)");
        return new Launched(started.target(), shape.describe(facts).build());
    }
}
