package dev.spacebench.space.vm;

import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SshAccess;
import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.SpaceFacts;
import dev.spacebench.space.Space;
import dev.spacebench.space.CpuFlags;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.limits.CpuSet;
import dev.spacebench.space.limits.HostShape;
import dev.spacebench.space.local.AgentLauncher;
import dev.spacebench.space.local.AgentProcess;
import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.HostRoot;
import dev.spacebench.space.local.LocalSpaceProvider;
import dev.spacebench.space.local.OpenSshServer;
import dev.spacebench.space.local.SpaceDir;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The {@code vm} kind: the agent in a QEMU virtual machine with its own kernel and no disk. The
 * guest boots an initramfs ({@link VmGuest}) and mounts the host's /usr, the JVM and the agent's
 * class path read-only over virtio-9p, and the Space's shared directory (work dir and bulk lane)
 * read-write at the same path. The agent listens inside the guest; QEMU's restricted user network
 * forwards one port from the host's loopback to it and lets nothing out.
 *
 * <p>KVM is used where it works; otherwise QEMU emulates the CPU (TCG), which boots in seconds but
 * starts a JVM some 40 times slower: expect a create to take 30 s or more then.
 *
 * <p>Needs: qemu-system-x86_64, a static busybox, and a guest kernel with its modules
 * ({@code spacebench.space.vm.kernel}, {@code spacebench.space.vm.modules}; by default the host's
 * own from /boot and /lib/modules, unless src/vm/fetch-guest.sh has put a Debian guest kernel in
 * {@link #FETCHED_GUEST}).
 */
@Component
public class VmSpaceProvider extends LocalSpaceProvider {

    public static final String KIND = SpaceKinds.VM;
    /** QEMU user networking's default guest address. */
    static final String GUEST_ADDRESS = "10.0.2.15";
    static final int GUEST_PORT = 7000;
    /** Guest RAM when the spec asks for none: the agent's JVM with its default 512 MiB heap cap, and the page cache. */
    static final long DEFAULT_MEMORY_MIB = 1024;

    private final String qemuName;
    /** Where src/vm/fetch-guest.sh puts a Debian guest kernel (vmlinuz) and its modules (modules/). */
    public static final Path FETCHED_GUEST = Path.of("/var/cache/spacebench/vm-guest");

    private final Path kernel;
    private final Path modules;
    private final Path busybox;
    private final String accel;

    @Autowired
    public VmSpaceProvider(SpacesSettings spaces, VmSettings vm) {
        this(spaces.root(), vm.qemu(), vm.kernel(), vm.modules(), vm.busybox(), vm.accel());
    }

    /**
     * @param kernel {@code spacebench.space.vm.kernel}: the guest kernel; blank for /boot/vmlinuz-$(uname -r)
     * @param modules {@code spacebench.space.vm.modules}: its lib/modules/VERSION directory; blank
     *     for /lib/modules/$(uname -r) with the default kernel, none otherwise
     * @param busybox {@code spacebench.space.vm.busybox}: a static busybox; blank for busybox on PATH
     * @param accel {@code spacebench.space.vm.accel}: kvm, tcg, or auto (KVM if /dev/kvm opens and
     *     the CPU shows vmx or svm)
     */
    public VmSpaceProvider(Path root, String qemu, String kernel, String modules, String busybox, String accel) {
        super(root);
        this.qemuName = qemu;
        String release = System.getProperty("os.version");
        boolean defaultKernel = kernel == null || kernel.isBlank();
        // Blank: the guest that src/vm/fetch-guest.sh unpacked, else the host's own kernel.
        boolean fetched = defaultKernel && Files.isRegularFile(FETCHED_GUEST.resolve("vmlinuz"));
        this.kernel = realIfExists(fetched ? FETCHED_GUEST.resolve("vmlinuz")
                : defaultKernel ? Path.of("/boot/vmlinuz-" + release) : Path.of(kernel));
        Path moduleDir = modules != null && !modules.isBlank() ? Path.of(modules)
                : fetched ? FETCHED_GUEST.resolve("modules")
                : defaultKernel ? Path.of("/lib/modules", release) : null;
        this.modules = moduleDir == null ? null : realIfExists(moduleDir);
        this.busybox = busybox == null || busybox.isBlank() ? Executables.onPath("busybox").orElse(null) : Path.of(busybox);
        this.accel = accel == null || accel.isBlank() ? "auto" : accel;
    }

    /** Symlinks resolved (src/vm/fetch-guest.sh links vmlinuz and modules), so walking modules/ finds files. */
    private static Path realIfExists(Path path) {
        try {
            return Files.exists(path) ? path.toRealPath() : path;
        } catch (java.io.IOException e) {
            return path;
        }
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Availability availability() {
        if (qemu().isEmpty()) {
            return Availability.no(qemuName + " not found on PATH", "install the qemu-system-x86 package");
        }
        if (busybox == null || !Files.isRegularFile(busybox)) {
            return Availability.no("no static busybox for the guest",
                    "install the busybox-static package, or set spacebench.space.vm.busybox");
        }
        if (!Files.isRegularFile(kernel)) {
            return Availability.no("no guest kernel at " + kernel, "run src/vm/fetch-guest.sh, or set spacebench.space.vm.kernel to a "
                    + "vmlinuz and spacebench.space.vm.modules to its lib/modules/VERSION directory (Debian: apt-get download "
                    + "linux-image-6.1.0-NN-amd64, then dpkg-deb -x the .deb into a directory)");
        }
        if (!Files.isReadable(kernel)) {
            return Availability.no("the guest kernel " + kernel + " is not readable by this user",
                    "make it readable, or point spacebench.space.vm.kernel at a readable copy");
        }
        return Availability.yes();
    }

    /** The agent, and SSH where Debian's sshd is installed: the guest runs the host's own over 9p ({@link VmSsh}). */
    @Override
    protected Set<String> servedChannels() {
        return OpenSshServer.servedWithSsh(SpaceChannels.AGENT);
    }

    @Override
    public Optional<String> channelsUnsupported(Set<String> channels) {
        return OpenSshServer.whySshToo(super.channelsUnsupported(channels), channels);
    }

    private Optional<Path> qemu() {
        Path given = Path.of(qemuName);
        return given.isAbsolute() ? Optional.of(given).filter(Files::isExecutable) : Executables.onPath(qemuName);
    }

    /** KVM only where it can work: /dev/kvm opens, and the CPU offers virtualization (a nested guest without it hangs). */
    public boolean useKvm() {
        if (accel.equals("kvm") || accel.equals("tcg")) {
            return accel.equals("kvm");
        }
        Path kvm = Path.of("/dev/kvm");
        try {
            return Files.isReadable(kvm) && Files.isWritable(kvm)
                    && CpuFlags.of(Files.readString(Path.of("/proc/cpuinfo"))).map(CpuFlags::offerVirtualization).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    protected Launched launch(SpaceDir dir, SpaceSpec spec, Duration readyTimeout, Launch launch) throws IOException, SpaceException {
        Path qemu = qemu().orElseThrow(() -> new SpaceException(availability().reason()));
        String id = dir.id();
        Path classPath = Files.createDirectory(dir.dir().resolve("classpath"));
        Map<Path, Path> guestClassPath = VmClassPath.stage(AgentLauncher.classPathEntries(), classPath, Path.of("/spacebench/classpath"));
        List<VmGuest.Share> shares = new ArrayList<>();
        shares.add(new VmGuest.Share("usr", Path.of("/usr"), "/usr", true));
        int n = 0;
        for (Path runtime : HostRoot.binds(AgentLauncher.runtimePaths())) {
            shares.add(new VmGuest.Share("ro" + n++, runtime, runtime.toString(), true));
        }
        shares.add(new VmGuest.Share("classpath", classPath, "/spacebench/classpath", true));
        shares.add(new VmGuest.Share("space", dir.shared(), dir.shared().toString(), false));

        List<String> agent = new ArrayList<>(AgentLauncher.command(spec.memoryMiB(), p -> guestClassPath.getOrDefault(p, p)));
        if (!useKvm()) {
            // Under software emulation the agent JVM's C2-compiled code has crashed it mid-transfer;
            // C1 only (tier 1) has not. Right after "java".
            agent.add(1, "-XX:TieredStopAtLevel=1");
        }
        agent.addAll(dir.agentArguments(GUEST_ADDRESS + ":" + GUEST_PORT, VmGuest.TOKEN_FILE, false));
        Path initramfs = dir.dir().resolve("initramfs.cpio");
        // sshd starts in the guest before the agent (its /init runs the agent last), so under TCG its
        // start overlaps the agent JVM's; it is waited for only once the agent is ready.
        VmSsh ssh = launch.wants(SpaceChannels.SSH) ? VmSsh.prepare(dir.dir(), GUEST_ADDRESS, dir.work()) : null;
        VmGuest guest = new VmGuest(busybox, modules, id, shares, GUEST_ADDRESS, dir.work(), dir.token().token(), agent, ssh);
        guest.writeInitramfs(initramfs);

        boolean kvm = useKvm();
        int vcpus = spec.cpus() == null ? Math.min(2, CpuSet.allowed().size()) : (int) Math.ceil(spec.cpus());
        long memoryMiB = spec.memoryMiB() == null ? DEFAULT_MEMORY_MIB : spec.memoryMiB();
        int hostPort = freeLoopbackPort();
        int sshHostPort = ssh == null ? 0 : freeLoopbackPort();
        Path console = dir.dir().resolve("console.log");
        List<String> command = new VmCommand(qemu, kvm, vcpus, memoryMiB, kernel, initramfs, console, shares, hostPort,
                GUEST_ADDRESS, GUEST_PORT, sshHostPort).argv();
        // QEMU's host threads get the CPU shape (affinity, quota); the guest's RAM is its memory limit.
        HostShape shape = HostShape.apply("spacebench-" + id, new SpaceSpec(KIND, spec.cpus(), null));
        launch.limits(shape);
        AgentProcess started;
        try {
            started = AgentProcess.start(shape.wrap(command), dir.dir(), dir.log(), readyTimeout);
        } catch (SpaceException e) {
            throw new SpaceException(e.getMessage() + AgentProcess.tail(console, "guest console"), e);
        }
        launch.ready(started);
        SshAccess access = null;
        if (ssh != null) {
            access = ssh.await(console, sshHostPort, readyTimeout);
            launch.ssh(access);
        }

        SpaceFacts.Builder facts = SpaceFacts.builder("QEMU virtual machine (" + (kvm ? "KVM" : "TCG software emulation")
                + ") with its own kernel; host /usr, the JVM and the agent's class path read-only over 9p");
        facts.detail("pid", Long.toString(started.process().pid()));
        started.process().descendants().filter(p -> p.info().command().map(c -> c.endsWith(qemu.getFileName().toString())).orElse(false))
                .findFirst().ifPresent(p -> facts.detail("qemu pid", Long.toString(p.pid())));
        facts.detail("accelerator", kvm ? "kvm" : "tcg (no usable KVM here: /dev/kvm missing, or the CPU shows no vmx/svm)");
        facts.detail("guest kernel", kernel.toString());
        facts.detail("directory", dir.dir().toString());
        facts.network(SpaceFacts.Transport.FORWARDED_TCP, "QEMU user network, restricted (no way out); host 127.0.0.1:"
                + hostPort + " → agent at " + started.address() + (ssh == null ? "" : "; host 127.0.0.1:" + sshHostPort
                + " → sshd at " + GUEST_ADDRESS + ":" + VmSsh.GUEST_PORT));
        if (access != null) {
            facts.detail("ssh", "OpenSSH sshd -D -e in the guest on " + GUEST_ADDRESS + ":" + VmSsh.GUEST_PORT + " (the host's /usr/sbin/sshd "
                    + "over 9p), QEMU forwarding host " + access.host() + ":" + access.port() + " to it; public-key authentication "
                    + "only, host and client keys made for this Space; gone with the VM");
        }
        facts.detail("shared directory", dir.shared() + " (9p, read-write, same path inside; holds the bulk lane)");
        facts.shape(spec.describeShape(), vcpus + " vCPUs (-smp); guest RAM " + memoryMiB + " MiB (-m); QEMU on the host: "
                + shape.enforced(), null);
        return new Launched("127.0.0.1:" + hostPort, facts.build());
    }

    /** A port free on the loopback right now; QEMU binds it a moment later (a race lost only to another binder). */
    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
