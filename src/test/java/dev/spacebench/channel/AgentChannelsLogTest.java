package dev.spacebench.channel;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.spacebench.agent.AgentOptions;
import dev.spacebench.agent.AgentServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Opening a channel to an agent on a unix socket logs nothing: no TCP option is set on it. */
class AgentChannelsLogTest {

    @TempDir
    Path dir;

    @Test
    void aUnixSocketChannelLogsNoUnknownChannelOption() throws Exception {
        AgentServer server = AgentServer.start(AgentOptions.parse(List.of("--listen", "unix:" + dir.resolve("a.sock"),
                "--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString())), "t0ken");
        // Netty logs through SLF4J when it finds it and through java.util.logging otherwise: listen to both.
        ListAppender<ILoggingEvent> logback = new ListAppender<>();
        logback.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(logback);
        List<String> jul = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                jul.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger.getLogger("").addHandler(handler);
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
            root.detachAppender(logback);
            java.util.logging.Logger.getLogger("").removeHandler(handler);
        }
        List<String> events = new ArrayList<>(jul);
        logback.list.forEach(e -> events.add(e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage()));
        assertThat(events).as("log events while opening unix-socket channels")
                .noneMatch(e -> e.contains("Unknown channel option") || e.contains("SO_KEEPALIVE"));
    }
}
