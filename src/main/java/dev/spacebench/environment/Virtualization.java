package dev.spacebench.environment;

import dev.spacebench.space.CpuFlags;
import dev.spacebench.space.SpaceKinds;
import java.util.Set;

/**
 * What virtualization stands between a Space's commands and the hardware: whether the host is
 * itself a virtual machine, whether its CPU offers hardware virtualization to guests, and whether
 * the Space is a virtual machine. Two runs that differ here are not like for like: a host that is a
 * cloud VM pays for every process start and system call what bare metal does not.
 *
 * <p>Read from the CPU's flags ({@link CpuFlags}).
 */
public final class Virtualization {

    private Virtualization() {}

    /**
     * The host's part, e.g. {@code "a virtual machine (the CPU reports a hypervisor); no vmx/svm
     * offered to guests"}.
     *
     * @param cpuinfo the text of {@code /proc/cpuinfo}; null or without a flags line gives null
     *     (not known, e.g. a CPU architecture whose cpuinfo has no flags)
     */
    public static String ofHost(String cpuinfo) {
        Set<String> set = CpuFlags.of(cpuinfo).orElse(null);
        if (set == null) {
            return null;
        }
        String host = set.contains("hypervisor") ? "a virtual machine (the CPU reports a hypervisor)"
                : "no hypervisor reported by the CPU (bare metal, or a hypervisor that hides itself)";
        String offered = set.contains("vmx") ? "vmx (Intel VT-x) offered to guests"
                : set.contains("svm") ? "svm (AMD-V) offered to guests"
                : "no vmx/svm offered to guests (a KVM guest cannot run here)";
        return host + "; " + offered;
    }

    /**
     * The fact a page shows and a comparison weighs, e.g. {@code "Space: none (shares the host's
     * kernel); host: a virtual machine (…)"}.
     *
     * @param kind the Space's kind ({@code vm} is a virtual machine; other kinds share the host's kernel)
     * @param spaceIsolation the Space's isolation fact (names the VM's accelerator for {@code vm})
     * @param host {@link #ofHost(String)}'s answer on the host; null when not recorded
     * @return null when neither part is known
     */
    public static String describe(String kind, String spaceIsolation, String host) {
        String space = SpaceKinds.isVirtualMachine(kind) ? (spaceIsolation == null ? "a virtual machine" : spaceIsolation)
                : SpaceKinds.reachesRunningAgent(kind) ? null
                : "none (shares the host's kernel)";
        if (host == null && space == null) {
            return null;
        }
        return (space == null ? "" : "Space: " + space + (host == null ? "" : "; "))
                + (host == null ? "" : "host: " + host);
    }
}
