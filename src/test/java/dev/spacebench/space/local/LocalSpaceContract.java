package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.channel.AgentChannel;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChecks;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.TestChannels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every kind that starts its own agent must do: a real agent answers the round trips, and
 * delete leaves no process, directory or socket behind, also after the agent was SIGKILLed.
 * Tests skip, naming what is missing, where the provider says its kind is not available here.
 */
public abstract class LocalSpaceContract {

    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    protected Path root;
    @TempDir
    protected Path scratch;

    protected SpaceProvider provider;
    protected TestChannels channels;

    /** A provider that keeps its Spaces below {@code root}. */
    protected abstract SpaceProvider provider(Path root);

    /** How long a create may take here. */
    protected Duration readyTimeout() {
        return READY_TIMEOUT;
    }

    /** The shape to ask for. */
    protected SpaceSpec spec() {
        return new SpaceSpec(provider.kind(), null, null);
    }

    /** False where the Space's processes run under another kernel (a VM), out of this host's /proc. */
    protected boolean hostSeesItsProcesses() {
        return true;
    }

    /** Checks the kind's own leftovers (cgroups, containers…) after delete; nothing by default. */
    protected void assertKindLeftNothing(Space space) throws IOException {}

    @BeforeEach
    void setUp() {
        provider = provider(root);
        // Skipped, not passed, where the kind cannot run here; the report names what is missing.
        assumeTrue(provider.availability().available(), () -> provider.kind() + " kind: " + provider.availability().reason());
        channels = new TestChannels();
    }

    @AfterEach
    void tearDown() {
        if (channels != null) {
            channels.close();
        }
    }

    @Test
    void agentAnswersAndDeleteLeavesNothing() throws Exception {
        long start = System.nanoTime();
        Space space = provider.create(spec(), readyTimeout());
        long createMillis = (System.nanoTime() - start) / 1_000_000;
        Leftovers leftovers = snapshot(space);
        try (AgentChannel channel = channels.open(space)) {
            SpaceChecks.roundTrips(channel, scratch);
            long p50 = SpaceChecks.execTrueP50(channel, 50);
            System.out.printf("%s: create→ready %d ms (provider says %d ms), exec true p50 %.2f ms, facts %s%n", space.kind(),
                    createMillis, space.readyNanos() / 1_000_000, p50 / 1e6, space.facts());
        } finally {
            provider.delete(space);
        }
        assertNothingLeft(space, leftovers);
        provider.delete(space); // idempotent
    }

    @Test
    void deleteAfterTheAgentWasKilledLeavesNothing() throws Exception {
        Space space = provider.create(spec(), readyTimeout());
        Leftovers leftovers = snapshot(space);
        try {
            ProcessHandle agent = ProcessHandle.of(agentPid(space, leftovers)).orElseThrow();
            agent.destroyForcibly();
            agent.onExit().get();
        } finally {
            provider.delete(space);
        }
        assertNothingLeft(space, leftovers);
    }

    @Test
    void deleteKillsWhatTheSpacesCommandsLeftRunning() throws Exception {
        assumeTrue(hostSeesItsProcesses(), "the Space's processes are not in this host's /proc");
        Space space = provider.create(spec(), readyTimeout());
        // A unique sleep length names the leftovers; setsid takes them out of the agent's session
        // and, as the shell exits at once, out of its process tree (re-parented to init).
        String detached = "3600." + (1000 + (System.nanoTime() % 9000));
        String doubled = "3601." + (1000 + (System.nanoTime() % 9000));
        try (AgentChannel channel = channels.open(space)) {
            channel.exec(java.util.List.of("sh", "-c", "setsid sleep " + detached + " >/dev/null 2>&1 </dev/null &"), SpaceChecks.TIMEOUT);
            channel.exec(java.util.List.of("sh", "-c", "(setsid sh -c 'sleep " + doubled + "' >/dev/null 2>&1 </dev/null &) ; true"),
                    SpaceChecks.TIMEOUT);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline && (Leftovers.processesMentioning("sleep " + detached).isEmpty()
                    || Leftovers.processesMentioning("sleep " + doubled).isEmpty())) {
                Leftovers.sleep(20);
            }
            assertThat(Leftovers.processesMentioning("sleep " + detached)).as("the detached sleep runs before delete").isNotEmpty();
            assertThat(Leftovers.processesMentioning("sleep " + doubled)).as("the double-forked sleep runs before delete").isNotEmpty();
        } finally {
            provider.delete(space);
        }
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < deadline && !(Leftovers.processesMentioning("sleep " + detached).isEmpty()
                && Leftovers.processesMentioning("sleep " + doubled).isEmpty())) {
            Leftovers.sleep(20);
        }
        try {
            assertThat(Leftovers.processesMentioning("sleep " + detached)).as("a setsid child after delete").isEmpty();
            assertThat(Leftovers.processesMentioning("sleep " + doubled)).as("a double-forked setsid child after delete").isEmpty();
        } finally {
            killMentioning("sleep " + detached);
            killMentioning("sleep " + doubled);
        }
    }

    private static void killMentioning(String text) throws IOException {
        for (String line : Leftovers.processesMentioning(text)) {
            ProcessHandle.of(Long.parseLong(line.substring(0, line.indexOf(':')))).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The Space's processes and files while it is live: by default the started process and its descendants. */
    protected Leftovers snapshot(Space space) {
        return Leftovers.snapshot(Long.parseLong(space.facts().get("pid")), Path.of(space.facts().get("directory")), space.id());
    }

    /** The host pid of the agent's JVM. */
    protected long agentPid(Space space, Leftovers leftovers) {
        return leftovers.javaPid();
    }

    private void assertNothingLeft(Space space, Leftovers leftovers) throws IOException {
        leftovers.assertNoneLeft();
        try (Stream<Path> left = Files.list(root)) {
            assertThat(left).as("entries left in the Spaces root").isEmpty();
        }
        assertKindLeftNothing(space);
    }
}
