package dev.spacebench.space.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.ListeningSockets;
import dev.spacebench.channel.AgentChannel;
import dev.spacebench.channel.Channel;
import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.channel.ssh.SshChannel;
import dev.spacebench.channel.ssh.SshChannelException;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.TestChannels;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSH into a VM Space: the host's sshd started by the guest's /init, reached through QEMU's host
 * forward on 127.0.0.1, its per-Space host key verified. Skips where the vm kind cannot run (see
 * {@link VmSpaceProviderTest#vmOrSkip}); under TCG one VM takes half a minute or more, so one Space
 * carries everything, and a few round trips of each channel are timed, taking turns, and printed beside each other.
 */
class VmSshTest {

    private static final Duration READY = Duration.ofMinutes(3);
    private static final Duration CALL = Duration.ofSeconds(60);
    /** Timed calls per channel and command: few, as each takes milliseconds under emulation. */
    private static final int N = 21;

    @TempDir
    Path root;

    @Test
    void sshReachesTheGuestsOwnSshdThroughALoopbackForwardWithItsHostKeyVerified() throws Exception {
        VmSpaceProvider vm = VmSpaceProviderTest.vmOrSkip(root);
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        Space space = vm.create(root, new SpaceSpec(VmSpaceProvider.KIND, 2.0, 1024L), READY, Set.of(SpaceChannels.AGENT, SpaceChannels.SSH));
        long qemu = Long.parseLong(space.facts().get("qemu pid"));
        try {
            SshAccess access = space.ssh();
            assertThat(access).isNotNull();
            // Only QEMU's forward on the host's loopback leads to it: QEMU listens there, on 127.0.0.1 alone.
            assertThat(ListeningSockets.of(qemu)).filteredOn(l -> l.port() == access.port())
                    .extracting(ListeningSockets.Listener::address).containsExactly(InetAddress.getByName("127.0.0.1"));
            try (SshChannel ssh = SshChannel.open(access, CALL); TestChannels channels = new TestChannels();
                    AgentChannel agent = channels.open(space)) {
                // The guest's own hostname (its /init sets the Space's id) and kernel, not the host's.
                ExecResult who = ssh.exec(List.of("sh", "-c", "hostname; cat /proc/sys/kernel/osrelease"), CALL);
                assertThat(who.exitCode()).isZero();
                List<String> lines = new String(who.stdout(), StandardCharsets.UTF_8).strip().lines().toList();
                assertThat(lines.get(0)).isEqualTo(space.id());
                assertThat(lines.get(1)).isNotEqualTo(System.getProperty("os.version"));
                assertThat(ssh.exec(List.of("sh", "-c", "exit 7"), CALL).exitCode()).isEqualTo(7);
                ssh.noop(CALL);

                // A file by SFTP into the work directory, which the host shares with the guest over 9p at the same path.
                byte[] bytes = new byte[200_000];
                new Random(27).nextBytes(bytes);
                Path source = Files.write(root.resolve("source"), bytes);
                FileRef expected = new FileRef(bytes.length, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
                assertThat(ssh.upload(source, expected, "files/one", Lane.STREAM, CALL)).isEqualTo(expected);
                assertThat(Files.readAllBytes(Path.of(access.workDir(), "files/one"))).isEqualTo(bytes);
                Path back = root.resolve("back");
                assertThat(ssh.download("files/one", expected, back, Lane.STREAM, CALL)).isEqualTo(expected);
                assertThat(Files.readAllBytes(back)).isEqualTo(bytes);

                // Side by side, on the same VM, calls of the two channels alternating: `sh -c true` and `true`.
                for (List<String> argv : List.of(List.of("sh", "-c", "true"), List.of("true"))) {
                    double[] p50 = p50s(List.of(ssh, agent), argv);
                    System.out.printf("vm (%s) %s, p50 of %d: ssh %.1f ms, agent %.1f ms%n",
                            space.facts().get("accelerator").split(" ")[0], String.join(" ", argv), N, p50[0], p50[1]);
                }
            }

            // A host key other than the one made for this Space is refused.
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            SshAccess wrong = new SshAccess(access.host(), access.port(), access.user(), generator.generateKeyPair().getPublic(),
                    access.clientKey(), access.workDir());
            assertThatThrownBy(() -> SshChannel.open(wrong, CALL)).isInstanceOf(SshChannelException.class)
                    .hasMessageContaining("not the Space's SHA256:");
            assertThat(Files.getPosixFilePermissions(access.clientKey())).extracting(Object::toString)
                    .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
            assertThat(access.clientKey()).startsWith(root.resolve(space.id()));
        } finally {
            vm.delete(space);
        }
        // Killed by delete; its parent shell reaps it a moment later.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && ProcessHandle.of(qemu).map(ProcessHandle::isAlive).orElse(false)) {
            Thread.sleep(20);
        }
        assertThat(ProcessHandle.of(qemu).map(ProcessHandle::isAlive).orElse(false)).as("QEMU (and the guest's sshd) 10 s after delete").isFalse();
        assertThat(root.resolve(space.id())).doesNotExist();
    }

    /** Per channel, the median of {@link #N} timed calls of {@code argv} (after 3 untimed), the channels taking turns; in ms. */
    private static double[] p50s(List<Channel> channels, List<String> argv) {
        long[][] ns = new long[channels.size()][N];
        for (int i = -3; i < N; i++) {
            for (int c = 0; c < channels.size(); c++) {
                long start = System.nanoTime();
                ExecResult result = channels.get(c).exec(argv, CALL);
                long took = System.nanoTime() - start;
                assertThat(result.exitCode()).as(channels.get(c).id() + " " + argv).isZero();
                if (i >= 0) {
                    ns[c][i] = took;
                }
            }
        }
        double[] p50 = new double[channels.size()];
        for (int c = 0; c < channels.size(); c++) {
            Arrays.sort(ns[c]);
            p50[c] = ns[c][N / 2] / 1e6;
        }
        return p50;
    }
}
