package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.LogEvents;
import dev.spacebench.agent.AgentOptions;
import dev.spacebench.agent.AgentServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a channel to an agent on a unix socket logs nothing: no TCP option is set on it. */
class AgentChannelsLogTest {

    @TempDir
    Path dir;

    @Test
    void aUnixSocketChannelLogsNoUnknownChannelOption() throws Exception {
        AgentServer server = AgentServer.start(AgentOptions.parse(List.of("--listen", "unix:" + dir.resolve("a.sock"),
                "--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString())), "t0ken");
        LogEvents events = new LogEvents();
        AgentChannels channels = new AgentChannels(null);
        try {
            for (int i = 0; i < 2; i++) {
                try (AgentChannel channel = channels.open("unix:" + dir.resolve("a.sock"), "t0ken", null, 1 << 20)) {
                    channel.ping(Duration.ofSeconds(10));
                }
            }
        } finally {
            channels.close();
            server.stop();
            events.close();
        }
        assertThat(events.lines()).as("log events while opening unix-socket channels")
                .noneMatch(e -> e.contains("Unknown channel option") || e.contains("SO_KEEPALIVE"));
    }
}
