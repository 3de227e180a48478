package dev.spacebench.space.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.ListeningSockets;
import dev.spacebench.channel.Channel.Operation;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.channel.TransferException;
import dev.spacebench.channel.container.ContainerExecChannel;
import dev.spacebench.channel.ssh.SshChannel;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceProvider.Availability;
import dev.spacebench.space.SpaceSpec;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real podman container Space reached through the engine's own exec and cp, through SSH to the
 * host's sshd running in it, and (where gVisor runs here) with runsc. Slow (a container and its
 * agent JVM each), so few: one Space carries exec, files, a timeout and SSH.
 */
class ContainerChannelsTest {

    private static final Duration READY = Duration.ofSeconds(120);
    private static final Duration CALL = Duration.ofSeconds(60);

    @TempDir
    Path root;
    private ContainerSpaceProvider provider;

    @BeforeEach
    void podman() {
        assumeTrue(ContainerCli.find("podman").isPresent(), "podman is missing: install the Debian packages podman and runc");
        provider = new ContainerSpaceProvider(root, "podman", "");
        Availability here = provider.availability();
        assumeTrue(here.available(), () -> "podman cannot run containers here: " + here.reason());
    }

    @Test
    void execFilesATimeoutAndSshReachTheSameContainer() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        Space space = provider.create(root, new SpaceSpec(ContainerSpaceProvider.KIND, null, null), READY,
                Set.of(SpaceChannels.AGENT, SpaceChannels.CONTAINER_EXEC, SpaceChannels.SSH));
        String container = space.containerExec().container();
        Path work = Path.of(space.containerExec().workDir());
        try (ContainerExecChannel exec = ContainerExecChannel.open(space.containerExec())) {
            assertThat(exec.unsupported(Operation.NOOP)).hasValueSatisfying(why -> assertThat(why).contains("no round trip that runs nothing"));
            // The container's own hostname (podman --hostname NAME), exit code and both streams as the command gave them.
            ExecResult ran = exec.exec(List.of("sh", "-c", "hostname; echo to-stderr >&2; exit 7"), CALL);
            assertThat(ran.exitCode()).isEqualTo(7);
            assertThat(new String(ran.stdout(), StandardCharsets.UTF_8).strip()).isEqualTo(container);
            assertThat(new String(ran.stderr(), StandardCharsets.UTF_8).strip()).isEqualTo("to-stderr");
            assertThat(ran.timedOut()).isFalse();

            // Files by podman cp, into the work directory (the same path on the host, so readable here).
            byte[] bytes = new byte[300_000];
            new Random(27).nextBytes(bytes);
            Path source = Files.write(root.resolve("source"), bytes);
            FileRef expected = new FileRef(bytes.length, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
            assertThat(exec.upload(source, expected, "files/a/one", Lane.STREAM, CALL)).isEqualTo(expected);
            assertThat(Files.readAllBytes(work.resolve("files/a/one"))).isEqualTo(bytes);
            Path back = root.resolve("back");
            assertThat(exec.download("files/a/one", expected, back, Lane.STREAM, CALL)).isEqualTo(expected);
            assertThat(Files.readAllBytes(back)).isEqualTo(bytes);
            FileRef wrong = new FileRef(bytes.length, "0".repeat(64));
            assertThatThrownBy(() -> exec.upload(source, wrong, "files/a/two", Lane.STREAM, CALL)).isInstanceOf(TransferException.class)
                    .hasMessageContaining("the far side's sha256sum").hasMessageContaining(expected.sha256());
            assertThat(exec.delete("files/a/one", CALL)).isTrue();
            assertThat(exec.delete("files/a/one", CALL)).isFalse();
            assertThat(work.resolve("files/a/one")).doesNotExist();

            // A command that hangs: the call ends near its timeout, and neither the podman exec nor the command is left.
            String marker = "sleep 613";
            long start = System.nanoTime();
            ExecResult hung = exec.exec(List.of("sleep", "613"), Duration.ofSeconds(2));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(hung.timedOut()).isTrue();
            assertThat(ms).as("ms until the hanging exec returned").isBetween(2_000L, 15_000L);
            assertThat(running(container + " sleep 613")).as("podman exec processes left").isEmpty();
            assertThat(running(marker)).as("the command left in the container").isEmpty();
            ExecResult inside = exec.exec(List.of("sh", "-c", "ps -eo args 2>/dev/null || cat /proc/[0-9]*/cmdline | tr '\\0' ' '"), CALL);
            assertThat(new String(inside.stdout(), StandardCharsets.UTF_8)).doesNotContain(marker);
        }

        // SSH: the host's sshd in the container, its port published on 127.0.0.1 only, the Space's host key verified.
        assertThat(space.ssh()).isNotNull();
        try (SshChannel ssh = SshChannel.open(space.ssh(), CALL)) {
            ExecResult who = ssh.exec(List.of("hostname"), CALL);
            assertThat(who.exitCode()).isZero();
            assertThat(new String(who.stdout(), StandardCharsets.UTF_8).strip()).isEqualTo(container);
            ssh.noop(CALL);
        }
        String conmon = provider.cliForTest().run(CALL, "inspect", "--format", "{{.State.ConmonPid}}", container).output().strip();
        assertThat(ListeningSockets.of(Long.parseLong(conmon))).filteredOn(l -> l.port() == space.ssh().port())
                .extracting(ListeningSockets.Listener::address).containsExactly(InetAddress.getByName("127.0.0.1"));
        assertThat(space.facts().get("runtime")).startsWith("runc");

        provider.delete(space);
        assertThat(running(container)).as("processes of the container after delete").isEmpty();
        assertThat(root.resolve(space.id())).doesNotExist();
    }

    @Test
    void runscRunsAContainerSpaceWhereGvisorWorksHereElseSaysWhy() throws Exception {
        provider.checkOptions();
        Availability runsc = provider.runtimes().get(ContainerRuntimes.RUNSC);
        if (!runsc.available()) {
            // Where it cannot run, the kind says why, and a run asking for it is refused on space.runtime with that reason.
            assertThat(runsc.reason()).isNotBlank();
            assertThat(provider.check(new SpaceSpec(ContainerSpaceProvider.KIND, null, null, null, null, null, null, "runsc")))
                    .containsEntry("space.runtime", "runsc cannot run here: " + runsc.reason() + "; fix: " + runsc.fix());
            assumeTrue(false, "runsc cannot run here: " + runsc.reason() + " (Debian package runsc)");
        }
        Space space = provider.create(root, new SpaceSpec(ContainerSpaceProvider.KIND, null, null, null, null, null, null, "runsc"),
                READY, Set.of(SpaceChannels.AGENT, SpaceChannels.CONTAINER_EXEC));
        try (ContainerExecChannel exec = ContainerExecChannel.open(space.containerExec())) {
            // gVisor's kernel log, which runc's containers (the host kernel's) never print.
            ExecResult dmesg = exec.exec(List.of("dmesg"), CALL);
            assertThat(new String(dmesg.stdout(), StandardCharsets.UTF_8)).contains("Starting gVisor");
            assertThat(space.facts().get("runtime")).startsWith("runsc (gVisor;");
        } finally {
            provider.delete(space);
        }
    }

    @Test
    void anUnknownRuntimeIsRefusedNamingTheFieldAndTheAllowedValues() {
        assertThat(provider.check(new SpaceSpec(ContainerSpaceProvider.KIND, null, null, null, null, null, null, "kata")))
                .containsExactly(java.util.Map.entry("space.runtime", "must be one of [runc, runsc] (default runc), was 'kata'"));
        assertThat(provider.check(new SpaceSpec(ContainerSpaceProvider.KIND, null, null, null, null, null, null, "runc"))).isEmpty();
    }

    /** Host processes whose command line contains {@code text}, but for this JVM. */
    private static List<String> running(String text) {
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses().filter(p -> p.pid() != self && p.isAlive())
                .map(p -> p.info().commandLine().orElse("")).filter(c -> c.contains(text)).toList();
    }
}
