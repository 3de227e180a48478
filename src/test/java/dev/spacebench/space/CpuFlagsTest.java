package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CpuFlagsTest {

    @Test
    void theFirstFlagsLineIsReadAndVirtualizationNeedsVmxOrSvmAsWholeFlags() {
        String intel = "processor\t: 0\nflags\t\t: fpu vme hypervisor vmx\nbugs\t\t: spectre_v1\n\nprocessor\t: 1\nflags\t\t: fpu\n";
        assertThat(CpuFlags.of(intel)).contains(Set.of("fpu", "vme", "hypervisor", "vmx"));
        assertThat(CpuFlags.offerVirtualization(CpuFlags.of(intel).orElseThrow())).isTrue();
        assertThat(CpuFlags.offerVirtualization(CpuFlags.of("flags : fpu svm\n").orElseThrow())).isTrue();
        // A flag that only starts with the letters is not the flag.
        assertThat(CpuFlags.offerVirtualization(CpuFlags.of("flags : fpu vmx_ept svmlock\n").orElseThrow())).isFalse();
        assertThat(CpuFlags.of("processor : 0\nFeatures : fp asimd\n")).isEmpty();
        assertThat(CpuFlags.of(null)).isEmpty();
    }
}
