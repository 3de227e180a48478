package dev.spacebench.environment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VirtualizationTest {

    private static String cpuinfo(String flags) {
        return "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\nflags\t\t: " + flags + "\nbogomips\t: 4000\n\n"
                + "processor\t: 1\nflags\t\t: fpu\n";
    }

    @Test
    void aCloudGuestWithoutNestedVirtualizationSaysSo() {
        assertThat(Virtualization.ofHost(cpuinfo("fpu vme sse2 hypervisor lahf_lm")))
                .isEqualTo("a virtual machine (the CPU reports a hypervisor); no vmx/svm offered to guests (a KVM guest cannot run here)");
    }

    @Test
    void bareMetalWithVtxAndAGuestWithNestedSvm() {
        assertThat(Virtualization.ofHost(cpuinfo("fpu vmx sse2")))
                .isEqualTo("no hypervisor reported by the CPU (bare metal, or a hypervisor that hides itself); vmx (Intel VT-x) offered to guests");
        assertThat(Virtualization.ofHost(cpuinfo("fpu svm hypervisor")))
                .isEqualTo("a virtual machine (the CPU reports a hypervisor); svm (AMD-V) offered to guests");
    }

    @Test
    void onlyWholeFlagsCountAndTheFirstCpuDecides() {
        // "vmx_ept" style names and "hypervisor_x" are not the flags themselves.
        assertThat(Virtualization.ofHost(cpuinfo("fpu vmxfoo nohypervisor")))
                .startsWith("no hypervisor reported").endsWith("no vmx/svm offered to guests (a KVM guest cannot run here)");
        assertThat(Virtualization.ofHost("processor\t: 0\nFeatures\t: fp asimd\n")).isNull();
        assertThat(Virtualization.ofHost(null)).isNull();
    }

    @Test
    void theFactNamesTheSpaceAndTheHost() {
        assertThat(Virtualization.describe("process", "none: a child process", "HOST"))
                .isEqualTo("Space: none (shares the host's kernel); host: HOST");
        assertThat(Virtualization.describe("vm", "QEMU virtual machine (TCG software emulation)", "HOST"))
                .isEqualTo("Space: QEMU virtual machine (TCG software emulation); host: HOST");
        assertThat(Virtualization.describe("attach", "whatever", "HOST")).isEqualTo("host: HOST");
        assertThat(Virtualization.describe("attach", "whatever", null)).isNull();
        assertThat(Virtualization.describe("sandbox", "bubblewrap", null)).isEqualTo("Space: none (shares the host's kernel)");
    }
}
