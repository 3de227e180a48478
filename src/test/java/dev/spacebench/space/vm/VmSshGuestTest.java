package dev.spacebench.space.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a VM Space asked for SSH is given before QEMU runs, checked without QEMU (the by-hand
 * {@link VmSshTest} boots one): the guest's sshd files in its initramfs, owned by root with the
 * host key 0600, the /init line that starts sshd once the network is up and before the agent, and
 * QEMU's second forward, from the host's 127.0.0.1 only.
 */
class VmSshGuestTest {

    @TempDir
    Path dir;

    @Test
    void theInitramfsCarriesSshdsFilesAndInitStartsItBeforeTheAgent() throws Exception {
        Path work = Files.createDirectories(dir.resolve("space/work"));
        VmSsh ssh = VmSsh.prepare(dir, "10.0.2.15", work);
        // On the host: the client's key owner-only, outside what the guest is given.
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ssh/client_key")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ssh/server/host_key")))).isEqualTo("rw-------");

        Path busybox = Files.writeString(dir.resolve("busybox"), "not really busybox");
        VmGuest guest = new VmGuest(busybox, null, "vm-1", List.of(), "10.0.2.15", work, "t0ken", List.of("java", "-jar", "agent.jar"), ssh);
        Path initramfs = dir.resolve("initramfs.cpio");
        guest.writeInitramfs(initramfs);
        Map<String, Entry> entries = newc(Files.readAllBytes(initramfs));

        Entry hostKey = entries.get("etc/spacebench-ssh/host_key");
        assertThat(hostKey.mode()).isEqualTo(0100600);
        assertThat(hostKey.uid()).isZero();
        assertThat(hostKey.data()).isEqualTo(Files.readString(dir.resolve("ssh/server/host_key")));
        assertThat(entries.get("run/sshd").mode()).isEqualTo(040755);
        assertThat(entries.get("etc/spacebench-ssh/authorized_keys").data()).startsWith("ecdsa-sha2-nistp256 ");
        assertThat(entries.get("etc/spacebench-ssh/sshd_config").data()).contains("ListenAddress 10.0.2.15\n", "Port 22\n",
                "HostKey /etc/spacebench-ssh/host_key\n", "AuthorizedKeysFile /etc/spacebench-ssh/authorized_keys\n",
                "PasswordAuthentication no\n", "AllowUsers root\n");
        assertThat(entries.get("etc/passwd").data()).contains("root:x:0:0:root:" + work + ":/bin/sh\n", "\nsshd:x:");
        assertThat(entries).doesNotContainKey("client_key").allSatisfy((name, entry) -> assertThat(name).doesNotContain("client_key"));

        String init = entries.get("init").data();
        int network = init.indexOf("ip addr add 10.0.2.15/24");
        int sshd = init.indexOf("/usr/sbin/sshd -D -e -f /etc/spacebench-ssh/sshd_config");
        int agent = init.indexOf("'java' '-jar' 'agent.jar'");
        assertThat(network).isPositive();
        assertThat(sshd).isGreaterThan(network);
        assertThat(agent).isGreaterThan(sshd);
    }

    @Test
    void qemuForwardsAHostLoopbackPortToTheGuestsSshdOnlyWhenAsked() {
        VmCommand with = new VmCommand(Path.of("/q"), false, 1, 512, Path.of("/k"), Path.of("/i"), Path.of("/c"), List.of(), 4000,
                "10.0.2.15", 7000, 4022);
        VmCommand without = new VmCommand(Path.of("/q"), false, 1, 512, Path.of("/k"), Path.of("/i"), Path.of("/c"), List.of(), 4000,
                "10.0.2.15", 7000, 0);
        assertThat(netdev(with)).isEqualTo("user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:4000-10.0.2.15:7000,"
                + "hostfwd=tcp:127.0.0.1:4022-10.0.2.15:22");
        assertThat(netdev(without)).isEqualTo("user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:4000-10.0.2.15:7000");
    }

    private static String netdev(VmCommand command) {
        List<String> argv = command.argv();
        return argv.get(argv.indexOf("-netdev") + 1);
    }

    record Entry(long mode, long uid, String data) {}

    /** Reads a newc cpio archive by its format (6-byte magic, 13 eight-digit hex fields, name and data padded to 4). */
    private static Map<String, Entry> newc(byte[] archive) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        int at = 0;
        while (true) {
            String header = new String(archive, at, 110, StandardCharsets.US_ASCII);
            assertThat(header).startsWith("070701");
            long mode = Long.parseLong(header.substring(14, 22), 16);
            long uid = Long.parseLong(header.substring(22, 30), 16);
            int size = Integer.parseInt(header.substring(54, 62), 16);
            int nameSize = Integer.parseInt(header.substring(94, 102), 16);
            String name = new String(archive, at + 110, nameSize - 1, StandardCharsets.UTF_8);
            int data = (at + 110 + nameSize + 3) & ~3;
            if (name.equals("TRAILER!!!")) {
                return entries;
            }
            entries.put(name, new Entry(mode, uid, new String(archive, data, size, StandardCharsets.UTF_8)));
            at = (data + size + 3) & ~3;
        }
    }
}
