package dev.spacebench.space.process;

import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.agent.MarkedProcesses;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.local.LocalSpaceProvider;
import dev.spacebench.space.local.OpenSshServer;
import dev.spacebench.space.local.ProcessTrees;
import dev.spacebench.space.local.SpaceDir;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
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
public class ProcessSpaceProvider extends LocalSpaceProvider {

    public static final String KIND = SpaceKinds.PROCESS;
    /** The environment entry every process of a process Space carries: {@code SPACEBENCH_SPACE=<id>}. */
    public static final String SPACE_MARK = "SPACEBENCH_SPACE";

    @Autowired
    public ProcessSpaceProvider(SpacesSettings spaces) {
        this(spaces.root());
    }

    public ProcessSpaceProvider(Path root) {
        super(root);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    /** The agent, and SSH where Debian's sshd is installed ({@link OpenSshServer}). */
    @Override
    protected Set<String> servedChannels() {
        return OpenSshServer.servedWithSsh(SpaceChannels.AGENT);
    }

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        return OpenSshServer.whySshToo(super.channelsUnsupported(channels), channels);
    }

    @Override
    protected Launched launch(SpaceDir dir, SpaceSpec spec, Duration readyTimeout, Launch launch) throws IOException, SpaceException {
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(dir.agentArguments("127.0.0.1:0"));
        String id = dir.id();
        AgentProcess agent = AgentProcess.start(command, Map.of(SPACE_MARK, id), dir.work(), dir.log(), readyTimeout);
        launch.ready(agent);
        ProcessHandle handle = agent.process().toHandle();
        launch.first(() -> {
            ProcessTrees.kill(handle);
            MarkedProcesses.kill(SPACE_MARK, id);
        });

        // After the agent is ready: space.ready times the agent, and the SSH server's start is not in it.
        SshAccess ssh = null;
        if (launch.wants(SpaceChannels.SSH)) {
            ssh = OpenSshServer.start(dir.dir(), Map.of(SPACE_MARK, id), dir.work().toString(), readyTimeout, launch);
            launch.ssh(ssh);
        }

        SpaceFacts.Builder builder = SpaceFacts.builder("none: a child process of the app on the same host")
                .network(SpaceFacts.Transport.LOOPBACK_TCP, "loopback TCP " + agent.target())
                .shape(spec.describeShape(), "none (the process kind cannot limit CPU or memory)", null)
                .detail("pid", Long.toString(agent.process().pid()))
                .detail("directory", dir.dir().toString())
                .detail("cleanup", "delete kills the agent's process tree and every process carrying " + SPACE_MARK + "=" + id
                + " in its environment; a process started with a cleaned environment outside the tree is not reached");
        if (ssh != null) {
            builder.detail("ssh", "OpenSSH sshd -D -e on " + ssh.host() + ":" + ssh.port() + ", public-key authentication only, "
                    + "host and client keys made for this Space; killed with it");
        }
        SpaceFacts facts = builder.build();
        return new Launched(agent.target(), facts);
    }

    /** Its processes can still be found by their mark. */
    @Override
    protected void forgotten(Space space) {
        MarkedProcesses.kill(SPACE_MARK, space.id());
    }

    /**
     * A dead app's Space: what its agent started and that left the agent's tree (setsid, a double
     * fork, a plain {@code &} whose shell exited) names no directory of the Space on its command
     * line, but carries the Space's mark, as delete finds it.
     */
    @Override
    public int removeLeftover(String id) {
        return MarkedProcesses.kill(SPACE_MARK, id);
    }
}
