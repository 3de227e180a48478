package dev.spacebench.space.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChecks;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.TestChannels;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.local.LocalSpaceContract;
import dev.spacebench.space.local.ProcessTrees;
import dev.spacebench.space.local.TokenFile;
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
        assertThat(space.facts().toMap()).containsEntry("shape asked", "cpus 2").containsKey("shape enforced");
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
                Duration.ofSeconds(1))).hasMessageContaining("must be an absolute path of a directory");
    }

    @Test
    void aBulkDirectoryIsUsedOnlyWhenItIsTheAgentsOwn() throws Exception {
        startAgent("unix:" + dir.resolve("agent.sock"));
        Path elsewhere = Files.createDirectories(scratch.resolve("elsewhere"));
        SpaceSpec notTheAgents = new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), elsewhere.toString());
        assertThat(provider.check(notTheAgents)).containsOnlyKeys("space.bulkDir");
        assertThat(provider.check(notTheAgents).get("space.bulkDir")).contains("is not the bulk directory", "missing");
        assertThatThrownBy(() -> provider.create(notTheAgents, Duration.ofSeconds(5))).isInstanceOf(SpaceException.class)
                .hasMessageContaining("space.bulkDir");

        // A copy of the id file is not enough to pass for it once the agent restarts: a new id each start.
        Files.writeString(elsewhere.resolve(dev.spacebench.agent.BulkDirId.FILE_NAME), "0".repeat(64) + "\n");
        assertThat(provider.check(notTheAgents).get("space.bulkDir")).contains("another agent's id");
        assertThat(elsewhere.toFile().list()).as("nothing written into the refused directory")
                .containsExactly(dev.spacebench.agent.BulkDirId.FILE_NAME);

        // The agent's own directory, also reached through a symlink, passes and is used by its real path.
        Path link = Files.createSymbolicLink(scratch.resolve("bulk-link"), dir.resolve("bulk"));
        SpaceSpec own = new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), link.toString());
        assertThat(provider.check(own)).isEmpty();
        Space space = provider.create(own, Duration.ofSeconds(5));
        assertThat(space.bulkDir()).isEqualTo(dir.resolve("bulk").toRealPath());
        provider.delete(space);
    }

    @Test
    void aDeadTargetOrAWrongTokenIsRefusedAtCheckAndCreateGivesUpSoon() throws Exception {
        SpaceSpec dead = new SpaceSpec(AttachSpaceProvider.KIND, null, null, "unix:" + dir.resolve("nobody.sock"), "t", null);
        assertThat(provider.check(dead)).containsOnlyKeys("space.target");
        assertThat(provider.check(dead).get("space.target")).contains("no agent answered a Ping");
        // Far below the 120 s ready timeout it is given: a dead target must not hold the worker.
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThatThrownBy(() -> provider.create(dead, Duration.ofSeconds(120))).isInstanceOf(SpaceException.class)
                        .hasMessageContaining("no agent accepts connections"));

        startAgent("127.0.0.1:0");
        SpaceSpec wrongToken = new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), "not-" + token.token(), null);
        assertThat(provider.check(wrongToken)).containsOnlyKeys("space.token");
        assertThat(provider.check(wrongToken).get("space.token")).contains("UNAUTHENTICATED").doesNotContain(token.token());
        assertThat(provider.check(new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), null))).isEmpty();
    }

    @Test
    void aStoredTokenIsSealedAndOpensOnlyInThisJvm() throws Exception {
        startAgent("127.0.0.1:0");
        SpaceSpec stored = new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), token.token(), null).forStorage();
        assertThat(stored.token()).startsWith("sealed:v1:").doesNotContain(token.token());
        Space space = provider.create(stored, Duration.ofSeconds(5));
        assertThat(space.token()).isEqualTo(token.token());
        try (AgentChannel channel = channels.open(space)) {
            channel.ping(SpaceChecks.TIMEOUT);
        }
        // One sealed under another key (the app that queued it has restarted) cannot be opened.
        String foreign = "sealed:v1:" + java.util.Base64.getEncoder().encodeToString(new byte[40]);
        assertThatThrownBy(() -> provider.create(new SpaceSpec(AttachSpaceProvider.KIND, null, null, agent.address(), foreign, null),
                Duration.ofSeconds(5))).isInstanceOf(SpaceException.class).hasMessageContaining("restarted");
    }
}
