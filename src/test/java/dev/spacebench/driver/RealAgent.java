package dev.spacebench.driver;

import dev.spacebench.agent.AgentMain;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.ProcessTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A real agent process on TCP loopback, started as a process Space's is, for the driver's tests. */
final class RealAgent implements AutoCloseable {

    static final String TOKEN = "driver-test-token-0123456789";

    private final AgentProcess agent;

    RealAgent(Path dir) throws Exception {
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(List.of("--work-dir", Files.createDirectories(dir.resolve("work")).toString(),
                "--bulk-dir", Files.createDirectories(dir.resolve("bulk")).toString(), "--listen", "127.0.0.1:0", "--exit-on-stdin-eof"));
        agent = AgentProcess.start(command, Map.of(AgentMain.TOKEN_ENV, TOKEN), dir, dir.resolve("agent.log"), Duration.ofMinutes(2));
    }

    String target() {
        return agent.target();
    }

    @Override
    public void close() {
        ProcessTrees.kill(agent.process().toHandle());
    }
}
