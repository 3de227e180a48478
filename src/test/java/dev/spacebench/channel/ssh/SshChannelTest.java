package dev.spacebench.channel.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.channel.ExecResult;
import dev.spacebench.channel.FileRef;
import dev.spacebench.channel.Lane;
import dev.spacebench.channel.TransferException;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SSH channel against a real OpenSSH server in a real process Space (Debian's sshd, started by
 * the Space with its generated config and keys): no mock server.
 */
class SshChannelTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Path SSHD = Path.of("/usr/sbin/sshd");

    @TempDir
    Path root;

    private ProcessSpaceProvider provider;
    private Space space;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Files.isExecutable(SSHD), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        provider = new ProcessSpaceProvider(root);
        space = provider.create(root, new SpaceSpec("process", null, null), Duration.ofSeconds(60),
                Set.of(SpaceChannels.AGENT, SpaceChannels.SSH));
    }

    @AfterEach
    void tearDown() {
        if (space != null) {
            provider.delete(space);
        }
    }

    @Test
    void execRunsTheArgvWithItsExitCodeAndOutput() {
        try (SshChannel channel = SshChannel.open(space.ssh(), TIMEOUT)) {
            assertThat(channel.exec(List.of("true"), TIMEOUT).exitCode()).isZero();
            assertThat(channel.exec(List.of("false"), TIMEOUT).exitCode()).isEqualTo(1);
            assertThat(channel.exec(List.of("sh", "-c", "exit 7"), TIMEOUT).exitCode()).isEqualTo(7);
            // Words with spaces, quotes and $ reach the command as they were: the argv is quoted, not re-split.
            ExecResult printed = channel.exec(List.of("printf", "%s|", "a b", "it's", "$HOME", ""), TIMEOUT);
            assertThat(new String(printed.stdout(), StandardCharsets.UTF_8)).isEqualTo("a b|it's|$HOME||");
            ExecResult err = channel.exec(List.of("sh", "-c", "echo oops >&2; exit 3"), TIMEOUT);
            assertThat(err.exitCode()).isEqualTo(3);
            assertThat(new String(err.stderr(), StandardCharsets.UTF_8)).isEqualTo("oops\n");
            assertThat(err.stdout()).isEmpty();
            assertThat(err.timedOut()).isFalse();
        }
    }

    @Test
    void theNoopIsAKeepaliveRoundTripThatRunsNothing() {
        try (SshChannel channel = SshChannel.open(space.ssh(), TIMEOUT)) {
            for (int i = 0; i < 200; i++) {
                channel.noop(TIMEOUT);
            }
            // The connection is still good for an exec after them.
            assertThat(channel.exec(List.of("true"), TIMEOUT).exitCode()).isZero();
        }
    }

    @Test
    void filesGoBothWaysWithTheirSha256CheckedOnTheFarSide() throws Exception {
        Path source = root.resolve("source");
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        new Random(27).nextBytes(bytes);
        Files.write(source, bytes);
        FileRef expected = new FileRef(bytes.length, sha256(bytes));
        Path work = Path.of(space.ssh().workDir());
        try (SshChannel channel = SshChannel.open(space.ssh(), TIMEOUT)) {
            assertThat(channel.upload(source, expected, "files/a/one", Lane.STREAM, TIMEOUT)).isEqualTo(expected);
            assertThat(Files.readAllBytes(work.resolve("files/a/one"))).as("what the Space holds").isEqualTo(bytes);

            Path received = root.resolve("received");
            assertThat(channel.download("files/a/one", expected, received, Lane.STREAM, TIMEOUT)).isEqualTo(expected);
            assertThat(Files.readAllBytes(received)).isEqualTo(bytes);

            // One byte changed in the Space, size the same: the download fails on the far side's SHA-256.
            byte[] changed = bytes.clone();
            changed[1000] ^= 1;
            Files.write(work.resolve("files/a/one"), changed);
            assertThatThrownBy(() -> channel.download("files/a/one", expected, root.resolve("received-2"), Lane.STREAM, TIMEOUT))
                    .isInstanceOf(TransferException.class).hasMessageContaining("far side's sha256sum")
                    .hasMessageContaining(sha256(changed));

            // An upload whose bytes are not what the host said it sends is caught by the far side's digest too.
            FileRef wrong = new FileRef(bytes.length, sha256(changed));
            assertThatThrownBy(() -> channel.upload(source, wrong, "files/two", Lane.STREAM, TIMEOUT))
                    .isInstanceOf(TransferException.class).hasMessageContaining(expected.sha256());

            assertThat(channel.delete("files/a/one", TIMEOUT)).isTrue();
            assertThat(channel.delete("files/a/one", TIMEOUT)).isFalse();
            assertThat(work.resolve("files/a/one")).doesNotExist();
        }
    }

    @Test
    void aHostKeyOtherThanTheSpacesIsRefusedWithBothFingerprints() throws Exception {
        SshAccess real = space.ssh();
        SshAccess wrongHostKey = new SshAccess(real.host(), real.port(), real.user(), newKeyPair().getPublic(), real.clientKey(),
                real.workDir());
        assertThatThrownBy(() -> SshChannel.open(wrongHostKey, TIMEOUT)).isInstanceOf(SshChannelException.class)
                .hasMessageContaining("offered host key SHA256:").hasMessageContaining("not the Space's SHA256:");
    }

    @Test
    void aClientKeyOtherThanTheSpacesIsRefused() throws Exception {
        SshAccess real = space.ssh();
        Path otherKey = root.resolve("other_key");
        Files.createFile(otherKey, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (OutputStream out = Files.newOutputStream(otherKey)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(newKeyPair(), "other", null, out);
        }
        SshAccess wrongClientKey = new SshAccess(real.host(), real.port(), real.user(), real.hostKey(), otherKey, real.workDir());
        assertThatThrownBy(() -> SshChannel.open(wrongClientKey, TIMEOUT)).isInstanceOf(SshChannelException.class)
                .hasMessageContaining("did not accept the Space's client key");
    }

    @Test
    void theKeysAreTheSpacesOwnerOnlyAndDeleteLeavesNoSshdRunning() throws Exception {
        Path dir = Path.of(space.facts().get("directory"));
        Path ssh = dir.resolve("ssh");
        assertThat(space.ssh().clientKey()).startsWith(dir);
        for (String key : List.of("client_key", "host_key", "authorized_keys")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ssh.resolve(key)))).as(key).isEqualTo("rw-------");
        }
        assertThat(space.toString()).doesNotContain(Files.readString(space.ssh().clientKey()).lines().skip(1).findFirst().orElseThrow());
        String config = ssh.resolve("sshd_config").toString();
        try (SshChannel channel = SshChannel.open(space.ssh(), TIMEOUT)) {
            // A session that is open when the Space goes: its sshd child goes too.
            channel.exec(List.of("true"), TIMEOUT);
            assertThat(Leftovers.processesMentioning(config)).as("the Space's sshd runs").hasSize(1);
            provider.delete(space);
            space = null;
        }
        assertThat(Leftovers.processesMentioning(config)).as("sshd after delete").isEmpty();
        assertThat(dir).doesNotExist();
    }

    private static KeyPair newKeyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
