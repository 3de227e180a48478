package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.AgentChannels;
import dev.spacebench.protocol.NettyJfrEvents;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real agent, started as the process kind starts it, serves its first connection without
 * starting the JDK's JFR event machinery (the cost {@link NettyJfrEvents} removes), and the same
 * agent with Netty's events forced on does start it: the class-load log tells them apart.
 */
class AgentNettyJfrTest {

    private static final String TOKEN = "jfr-test-token-0123456789";
    /** Loaded only when Netty's buffer events are on: Netty's event class and the JDK's event metadata loader. */
    private static final List<String> EVENT_CLASSES = List.of("io.grpc.netty.shaded.io.netty.buffer.AllocateChunkEvent ",
            "jdk.jfr.internal.MetadataLoader ");

    @TempDir
    Path dir;

    @Test
    void theAgentsFirstConnectionLoadsNoJfrEventClasses() throws Exception {
        String loaded = classesLoadedByAFirstPing("default", List.of());
        assertThat(EVENT_CLASSES).noneMatch(loaded::contains);
    }

    @Test
    void withNettysEventsForcedOnTheSameFirstConnectionLoadsThem() throws Exception {
        String loaded = classesLoadedByAFirstPing("forced", List.of("-D" + NettyJfrEvents.PROPERTY + "=true"));
        assertThat(EVENT_CLASSES).allMatch(loaded::contains);
    }

    /** Starts an agent with a class-load log, pings it once, stops it; the log's text. */
    private String classesLoadedByAFirstPing(String name, List<String> options) throws Exception {
        Path log = dir.resolve(name + "-classes.log");
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(1, options);
        command.add(1, "-Xlog:class+load=info:file=" + log);
        command.addAll(List.of("--work-dir", dir.resolve(name + "-work").toString(), "--bulk-dir", dir.resolve(name + "-bulk").toString(),
                "--listen", "127.0.0.1:0", "--exit-on-stdin-eof"));
        AgentProcess agent = AgentProcess.start(command, Map.of(AgentMain.TOKEN_ENV, TOKEN), dir, dir.resolve(name + "-agent.log"),
                Duration.ofSeconds(60));
        try (AgentChannel channel = AgentChannels.plain(agent.target(), TOKEN)) {
            channel.ping(Duration.ofSeconds(30));
        } finally {
            agent.process().destroy();
            if (!agent.process().waitFor(30, TimeUnit.SECONDS)) {
                agent.process().destroyForcibly();
            }
        }
        return Files.readString(log);
    }
}
