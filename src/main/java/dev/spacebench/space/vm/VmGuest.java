package dev.spacebench.space.vm;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What boots inside a VM Space: an initramfs holding a static busybox, the kernel modules for
 * virtio, virtio-net and 9p, the agent's token, and an {@code /init} that loads them, mounts the
 * host's 9p shares, brings up the network and runs the agent. The guest has no disk: its OS is the
 * host's /usr, read-only over 9p, as in the sandbox.
 *
 * @param busybox a statically linked busybox (Debian: busybox-static)
 * @param modules the guest kernel's {@code lib/modules/VERSION} directory, or null if it has virtio
 *     and 9p built in
 * @param hostname the guest's host name
 * @param shares the host directories the guest mounts, in order
 * @param address the guest's IPv4 address on QEMU's user network (10.0.2.15 by default)
 * @param workDir where the agent starts
 * @param token the agent's token, stored in the initramfs only (not on any command line)
 * @param agent the agent's command line, with its {@code --token-file} at {@link #TOKEN_FILE}
 * @param ssh the OpenSSH server the guest starts before its agent, or null for none
 */
record VmGuest(Path busybox, Path modules, String hostname, List<Share> shares, String address, Path workDir, String token,
        List<String> agent, VmSsh ssh) {

    /** Where the agent finds its token inside the guest. */
    static final String TOKEN_FILE = "/run/spacebench/token";
    /** Marks the guest's own console lines, which the host shows when the agent fails to start. */
    static final String CONSOLE_PREFIX = "SPACEBENCH-VM: ";
    /** The modules QEMU's devices need, in dependency order, as Debian's 6.1 kernel builds them. */
    static final List<String> MODULES = List.of("virtio", "virtio_ring", "virtio_pci_modern_dev", "virtio_pci_legacy_dev", "virtio_pci",
            "failover", "net_failover", "virtio_net", "fscache", "netfs", "9pnet", "9pnet_virtio", "9p");

    /**
     * A host directory the guest mounts over virtio-9p.
     *
     * @param tag the 9p mount tag, unique per VM
     * @param guestPath where the guest mounts it
     */
    record Share(String tag, Path hostPath, String guestPath, boolean readOnly) {}

    /** Writes the initramfs, an uncompressed newc cpio archive, to {@code file}. */
    void writeInitramfs(Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            Cpio cpio = new Cpio(out);
            for (String dir : List.of("bin", "dev", "proc", "sys", "tmp", "usr", "run", "run/spacebench", "modules", "etc")) {
                cpio.directory(dir);
            }
            // As on the host (merged /usr): the JVM's ELF interpreter is /lib64/… → /lib/x86_64-linux-gnu/…
            cpio.symlink("lib", "usr/lib");
            cpio.symlink("lib64", "usr/lib64");
            cpio.symlink("sbin", "bin");
            cpio.file("bin/busybox", 0755, Files.readAllBytes(busybox));
            for (Path module : moduleFiles()) {
                cpio.file("modules/" + module.getFileName(), 0644, Files.readAllBytes(module));
            }
            cpio.file(TOKEN_FILE.substring(1), 0600, token.getBytes(StandardCharsets.UTF_8));
            if (ssh != null) {
                ssh.addTo(cpio);
            }
            cpio.file("init", 0755, init().getBytes(StandardCharsets.UTF_8));
            cpio.finish();
        }
    }

    /** The modules of {@link #MODULES} found below {@code modules}, in that order; uncompressed {@code .ko} only. */
    List<Path> moduleFiles() throws IOException {
        List<Path> found = new ArrayList<>();
        if (modules == null) {
            return found;
        }
        List<Path> all;
        try (Stream<Path> files = Files.walk(modules)) {
            all = files.filter(f -> f.getFileName().toString().endsWith(".ko")).toList();
        }
        for (String name : MODULES) {
            Optional<Path> module = all.stream().filter(f -> f.getFileName().toString().equals(name + ".ko")).findFirst();
            module.ifPresent(found::add);
        }
        return found;
    }

    /** The guest's /init: a busybox shell script. */
    String init() {
        StringBuilder s = new StringBuilder();
        s.append("#!/bin/busybox sh\n");
        s.append("/bin/busybox --install -s /bin\n");
        s.append("mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp\n");
        s.append("echo; echo '").append(CONSOLE_PREFIX).append("booted'\n");
        // Twice: a module whose dependency comes later in the list loads on the second pass.
        s.append("for pass in 1 2; do for m in");
        MODULES.forEach(m -> s.append(' ').append(m));
        s.append("; do [ -f /modules/$m.ko ] && insmod /modules/$m.ko 2>/dev/null; done; done\n");
        for (Share share : shares) {
            // cache=loose for the read-only OS and class path (fast JVM start); none where host
            // and guest both write (the bulk lane), so each sees the other's files at once.
            String options = "trans=virtio,version=9p2000.L,msize=1048576," + (share.readOnly() ? "ro,cache=loose" : "rw,cache=none");
            s.append("mkdir -p ").append(quote(share.guestPath())).append(" && mount -t 9p -o ").append(options).append(' ')
                    .append(share.tag()).append(' ').append(quote(share.guestPath())).append(" || echo '").append(CONSOLE_PREFIX)
                    .append("cannot mount 9p share ").append(share.tag()).append(" (no virtio-9p in the guest kernel?)'\n");
        }
        s.append("hostname ").append(quote(hostname)).append('\n');
        s.append("ip link set lo up; ip link set eth0 up && ip addr add ").append(address).append("/24 dev eth0 || echo '")
                .append(CONSOLE_PREFIX).append("no eth0 (no virtio-net in the guest kernel?)'\n");
        if (ssh != null) {
            s.append(ssh.initLine());
        }
        s.append("cd ").append(quote(workDir.toString())).append('\n');
        s.append("export PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp LANG=C.UTF-8\n");
        for (String arg : agent) {
            s.append(quote(arg)).append(' ');
        }
        s.append("2>&1\n");
        s.append("echo '").append(CONSOLE_PREFIX).append("the agent exited with '$?\n");
        s.append("poweroff -f\n");
        return s.toString();
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
