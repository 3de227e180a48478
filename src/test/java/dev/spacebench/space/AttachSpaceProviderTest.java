package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.channel.AgentChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The attach kind against an agent this test starts itself, as someone else would. */
class AttachSpaceProviderTest {

    @TempDir
    Path dir;
    @TempDir
    Path scratch;

    private final AttachSpaceProvider provider = new AttachSpaceProvider();
    private TestChannels channels;
    private AgentProcess agent;
    private TokenFile token;

    @BeforeEach
    void setUp() {
        channels = new TestChannels();
    }

    @AfterEach
    void tearDown() {
        channels.close();
        if (agent != null) {
            ProcessTrees.kill(agent.process().toHandle());
        }
    }

    /** Starts an agent listening at {@code listen}, its bulk directory {@code dir/bulk}. */
    private AgentProcess startAgent(String listen) throws Exception {
        token = TokenFile.create(dir);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path bulk = Files.createDirectories(dir.resolve("bulk"));
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(List.of("--listen", listen, "--work-dir", work.toString(), "--bulk-dir", bulk.toString(),
                "--token-file", token.path().toString(), "--exit-on-stdin-eof"));
        agent = AgentProcess.start(command, work, dir.resolve("agent.log"), LocalSpaceContract.READY_TIMEOUT);
        return agent;
    }

    @Test
    void roundTripsOverAUnixSocketAndDeleteLeavesTheAgentRunning() throws Exception {
        startAgent("unix:" + dir.resolve("agent.sock"));
        Space space = provider.create(new SpaceSpec(AttachSpaceProvider.KIND, 2.0, null, agent.address(), token.token(),
                dir.resolve("bulk").toString()), Duration.ofSeconds(5));
        assertThat(space.facts()).containsEntry("shape asked", "cpus 2").containsKey("shape enforced");
        try (AgentChannel channel = channels.open(space)) {
            SpaceChecks.roundTrips(channel, scratch);
        } finally {
            provider.delete(space);
        }
        assertThat(agent.process().isAlive()).as("the attached agent after delete").isTrue();
        try (AgentChannel again = channels.open(space)) {
            again.ping(SpaceChecks.TIMEOUT);
        }
    }

    @Test
    void roundTripsOverLoopbackTcpWithoutABulkLane() throws Exception {
        startAgent("127.0.0.1:0");
        Space space = provider.create(new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), null),
                Duration.ofSeconds(5));
        assertThat(space.target()).startsWith("127.0.0.1:");
        assertThat(space.bulkDir()).isNull();
        try (AgentChannel channel = channels.open(space)) {
            channel.ping(SpaceChecks.TIMEOUT);
            assertThat(channel.exec(List.of("true"), SpaceChecks.TIMEOUT).exitCode()).isZero();
        } finally {
            provider.delete(space);
        }
        assertThat(agent.process().isAlive()).isTrue();
    }

    @Test
    void deleteAfterTheAgentWasKilledIsQuiet() throws Exception {
        startAgent("unix:" + dir.resolve("agent.sock"));
        Space space = provider.create(new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), null),
                Duration.ofSeconds(5));
        agent.process().destroyForcibly().waitFor();
        provider.delete(space);
        assertThat(Leftovers.processesMentioning(dir.toString())).isEmpty();
    }

    @Test
    void refusesWhatItCannotReachSafely() {
        assertThatThrownBy(() -> provider.create(new SpaceSpec("attach", null, null, "192.0.2.1:5000", "t", null), Duration.ofSeconds(1)))
                .isInstanceOf(SpaceException.class).hasMessageContaining("not on a loopback address");
        assertThatThrownBy(() -> provider.create(new SpaceSpec("attach", null, null, null, "t", null), Duration.ofSeconds(1)))
                .hasMessageContaining("needs space.target");
        assertThatThrownBy(() -> provider.create(new SpaceSpec("attach", null, null, "127.0.0.1:9", null, null), Duration.ofSeconds(1)))
                .hasMessageContaining("needs space.token");
        assertThatThrownBy(() -> provider.create(new SpaceSpec("attach", null, null, "unix:" + dir.resolve("none.sock"), "t", null),
                Duration.ofMillis(200))).hasMessageContaining("no agent accepts connections");
        assertThatThrownBy(() -> provider.create(new SpaceSpec("attach", null, null, "127.0.0.1:9", "t", dir.resolve("nope").toString()),
                Duration.ofSeconds(1))).hasMessageContaining("is not a directory");
    }
}
