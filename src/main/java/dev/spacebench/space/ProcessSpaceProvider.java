package dev.spacebench.space;

import dev.spacebench.agent.MarkedProcesses;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The {@code process} kind: the agent as a child process of this app on the same host, with its
 * own temporary work directory, bulk directory and token. It isolates nothing; it is the
 * baseline every isolated kind is compared with.
 *
 * <p>Delete kills the agent's process tree and then every process that carries the Space's
 * environment entry {@code SPACEBENCH_SPACE=<id>}, which the agent and everything it starts
 * inherit: that reaches commands that left the tree ({@code setsid}, double forks). A process
 * exec'd with a cleaned environment ({@code env -i}) that also left the tree is out of reach: this
 * kind has no pid namespace or cgroup of its own.
 */
@Component
public class ProcessSpaceProvider implements SpaceProvider {

    public static final String KIND = "process";
    /** The environment entry every process of a process Space carries: {@code SPACEBENCH_SPACE=<id>}. */
    public static final String SPACE_MARK = "SPACEBENCH_SPACE";

    private final Path root;
    private final Map<String, Teardown> live = new ConcurrentHashMap<>();

    public ProcessSpaceProvider(@Value("${spacebench.spaces.root:${java.io.tmpdir}/spacebench-spaces}") Path root) {
        this.root = root;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public Space create(SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        return create(root, spec, readyTimeout);
    }

    @Override
    public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
        Instant createdAt = Instant.now();
        long start = System.nanoTime();
        SpaceDir dir = null;
        try {
            dir = SpaceDir.create(root, KIND);
            List<String> command = new ArrayList<>(AgentLauncher.command());
            command.addAll(dir.agentArguments("127.0.0.1:0"));
            String id = dir.id();
            AgentProcess agent = AgentProcess.start(command, Map.of(SPACE_MARK, id), dir.work(), dir.log(), readyTimeout);
            ProcessHandle handle = agent.process().toHandle();
            live.put(id, new Teardown(() -> {
                ProcessTrees.kill(handle);
                MarkedProcesses.kill(SPACE_MARK, id);
            }, null, null, dir.dir()));
            long readyNanos = System.nanoTime() - start;

            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("isolation", "none: a child process of the app on the same host");
            facts.put("pid", Long.toString(agent.process().pid()));
            facts.put("directory", dir.dir().toString());
            facts.put("network", "loopback TCP " + agent.target());
            facts.put("launch mechanism", AgentLauncher.launchMechanism());
            facts.put("shape asked", spec.describeShape());
            facts.put("shape enforced", "none (the process kind cannot limit CPU or memory)");
            facts.put("cleanup", "delete kills the agent's process tree and every process carrying " + SPACE_MARK + "=" + id
                    + " in its environment; a process started with a cleaned environment outside the tree is not reached");
            return new Space(dir.id(), KIND, agent.target(), dir.token().token(), dir.bulk(), createdAt, readyNanos, facts);
        } catch (IOException | SpaceException e) {
            throw Teardown.directory(dir == null ? null : dir.dir()).failed(KIND, e);
        }
    }

    @Override
    public void delete(Space space) {
        Teardown teardown = live.remove(space.id());
        if (teardown == null) {
            // A Space this provider no longer tracks: its processes can still be found by their mark.
            MarkedProcesses.kill(SPACE_MARK, space.id());
        }
        (teardown != null ? teardown : Teardown.directory(root.resolve(space.id()))).run();
    }
}
