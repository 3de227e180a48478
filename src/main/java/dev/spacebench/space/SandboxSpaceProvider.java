package dev.spacebench.space;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
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
public class SandboxSpaceProvider implements SpaceProvider {

    public static final String KIND = "sandbox";

    private final Path root;
    private final Map<String, Teardown> live = new ConcurrentHashMap<>();

    public SandboxSpaceProvider(@Value("${spacebench.spaces.root:${java.io.tmpdir}/spacebench-spaces}") Path root) {
        this.root = root;
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

    @Override
    public boolean agentOnUnixSocket() {
        return true;
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(root, spec, readyTimeout);
    }

    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        Path bwrap = bwrap().orElseThrow(() -> new SpaceException(availability().reason()));
        SpaceDir dir = null;
        HostShape shape = null;
        try {
            dir = SpaceDir.create(root, KIND);
            String id = dir.id();
            List<String> agent = new ArrayList<>(AgentLauncher.command(spec.memoryMiB()));
            agent.addAll(dir.agentArguments("unix:" + dir.socket()));
            List<Path> readOnly = new ArrayList<>(AgentLauncher.hostPaths());
            readOnly.add(dir.token().path());
            List<String> command = new SandboxCommand(bwrap, id, dir.shared(), dir.work(), readOnly, agent).argv();

            shape = HostShape.apply("spacebench-" + id, spec);
            AgentProcess started = AgentProcess.start(shape.wrap(command), dir.dir(), dir.log(), readyTimeout);
            live.put(id, new Teardown(null, started.process(), shape, dir.dir()));
            long readyNanos = System.nanoTime() - start;

            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("isolation", "bubblewrap: own user, pid, mount, network, uts, ipc and cgroup namespaces; "
                    + "host /usr, the JVM and the agent's class path read-only; clean environment");
            facts.put("pid", Long.toString(started.process().pid()));
            facts.put("directory", dir.dir().toString());
            facts.put("network", "none (own empty network namespace); the agent listens on " + started.address());
            facts.put("shared directory", dir.shared() + " (read-write, same path inside; holds the bulk lane)");
            facts.put("launch mechanism", AgentLauncher.launchMechanism());
            shape.describe(facts);
            return new Space(id, KIND, started.target(), dir.token().token(), dir.bulk(), createdAt, readyNanos, facts);
        } catch (IOException | SpaceException e) {
            throw new Teardown(null, null, shape, dir == null ? null : dir.dir()).failed(KIND, e);
        }
    }

    @Override
    public void delete(Space space) {
        // Not ours or deleted already: still make sure its files are gone.
        Teardown teardown = live.remove(space.id());
        (teardown != null ? teardown : Teardown.directory(root.resolve(space.id()))).run();
    }
}
