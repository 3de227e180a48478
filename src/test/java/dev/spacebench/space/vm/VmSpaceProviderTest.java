package dev.spacebench.space.vm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.local.Leftovers;
import dev.spacebench.space.local.LocalSpaceContract;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The vm kind. Configure the guest kernel like the app does, as system properties
 * ({@code -Dspacebench.space.vm.kernel=… -Dspacebench.space.vm.modules=…}); without them the
 * host's own kernel from /boot is tried. Without usable KVM, QEMU emulates the CPU and each VM
 * takes 30 s or more to start its agent, so these tests then run only when asked with
 * {@code SPACEBENCH_TEST_VM=tcg} in the environment (as .ci/run sets) or {@code -Dspacebench.test.vm=tcg}.
 */
class VmSpaceProviderTest extends LocalSpaceContract {

    @Override
    protected boolean hostSeesItsProcesses() {
        return false;
    }

    @Override
    protected SpaceProvider provider(Path root) {
        return vmOrSkip(root);
    }

    /**
     * The vm kind configured from system properties as the app would be, or the test skipped
     * naming what is missing: Debian's qemu-system-x86 and busybox-static, the guest kernel of
     * src/vm/fetch-guest.sh, and (without usable KVM) SPACEBENCH_TEST_VM=tcg.
     */
    static VmSpaceProvider vmOrSkip(Path root) {
        VmSpaceProvider vm = new VmSpaceProvider(root, System.getProperty("spacebench.space.vm.qemu", "qemu-system-x86_64"),
                System.getProperty("spacebench.space.vm.kernel", ""), System.getProperty("spacebench.space.vm.modules", ""),
                System.getProperty("spacebench.space.vm.busybox", ""), System.getProperty("spacebench.space.vm.accel", "auto"));
        String wanted = System.getProperty("spacebench.test.vm", System.getenv().getOrDefault("SPACEBENCH_TEST_VM", ""));
        assumeTrue(vm.availability().available(), () -> "vm kind: " + vm.availability().reason() + "; fix: " + vm.availability().fix()
                + " (the vm kind needs the Debian packages qemu-system-x86 and busybox-static, and the guest kernel files "
                + "src/vm/fetch-guest.sh puts in " + VmSpaceProvider.FETCHED_GUEST + ")");
        assumeTrue(vm.useKvm() || "tcg".equals(wanted),
                "vm kind: no usable KVM here, and under software emulation (TCG) each VM takes 30 s or more; "
                        + "set SPACEBENCH_TEST_VM=tcg (or -Dspacebench.test.vm=tcg) to test it anyway");
        return vm;
    }

    @Override
    protected Duration readyTimeout() {
        return Duration.ofMinutes(3);
    }

    @Override
    protected SpaceSpec spec() {
        return new SpaceSpec(VmSpaceProvider.KIND, 2.0, 1024L);
    }

    /** The host's view of the VM is QEMU: killing it is the VM's SIGKILL. */
    @Override
    protected long agentPid(Space space, Leftovers leftovers) {
        return Long.parseLong(space.facts().get("qemu pid"));
    }
}
