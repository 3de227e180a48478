package dev.spacebench.space.vm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The QEMU command line for a VM Space: no default devices, the serial console on stdout (and in
 * a log file), the host's shares over virtio-9p, and a restricted user-mode network whose only
 * way in is the agent's port forwarded from the host's loopback. Wrapped in a shell that kills
 * QEMU when its stdin closes, i.e. when this app dies, since the guest's agent cannot see that.
 *
 * @param qemu the qemu-system-x86_64 binary
 * @param kvm whether to use KVM ({@code -accel kvm -cpu host}); software emulation (TCG) otherwise
 * @param vcpus guest CPUs
 * @param memoryMiB guest RAM
 * @param kernel the guest kernel (bzImage / vmlinuz)
 * @param initramfs from {@link VmGuest#writeInitramfs}
 * @param console where the serial console is logged too
 * @param shares the guest's 9p shares
 * @param hostPort the host's loopback port forwarded to the agent
 * @param guestAddress the guest's address on the user network
 * @param guestPort the agent's port in the guest
 * @param sshHostPort the host's loopback port forwarded to the guest's sshd ({@link VmSsh#GUEST_PORT}); 0 for none
 */
record VmCommand(Path qemu, boolean kvm, int vcpus, long memoryMiB, Path kernel, Path initramfs, Path console,
        List<VmGuest.Share> shares, int hostPort, String guestAddress, int guestPort, int sshHostPort) {

    List<String> argv() {
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c",
                "\"$@\" </dev/null & qemu=$!; cat >/dev/null; kill -9 $qemu 2>/dev/null; wait", "sh"));
        argv.add(qemu.toString());
        argv.addAll(kvm ? List.of("-accel", "kvm", "-cpu", "host") : List.of("-accel", "tcg"));
        argv.addAll(List.of("-smp", Integer.toString(vcpus), "-m", memoryMiB + "M",
                "-nodefaults", "-display", "none", "-no-reboot", "-monitor", "none",
                "-kernel", kernel.toString(), "-initrd", initramfs.toString(),
                "-append", "console=ttyS0 quiet loglevel=1 panic=-1",
                "-chardev", "stdio,id=console,signal=off,logfile=" + option(console), "-serial", "chardev:console"));
        for (int i = 0; i < shares.size(); i++) {
            VmGuest.Share share = shares.get(i);
            argv.addAll(List.of("-fsdev", "local,id=fs" + i + ",path=" + option(share.hostPath()) + ",security_model=none"
                    + (share.readOnly() ? ",readonly=on" : ""), "-device", "virtio-9p-pci,fsdev=fs" + i + ",mount_tag=" + share.tag()));
        }
        String sshForward = sshHostPort == 0 ? "" : ",hostfwd=tcp:127.0.0.1:" + sshHostPort + "-" + guestAddress + ":" + VmSsh.GUEST_PORT;
        argv.addAll(List.of("-netdev", "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:" + hostPort + "-" + guestAddress + ":" + guestPort
                + sshForward,
                "-device", "virtio-net-pci,netdev=net0"));
        return argv;
    }

    /** QEMU's option syntax splits at commas; a comma inside a value is written twice. */
    private static String option(Path path) {
        return path.toString().replace(",", ",,");
    }
}
