package dev.spacebench.space;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The CPU's feature flags as Linux lists them: the first {@code flags} line of {@code /proc/cpuinfo}.
 * {@code vmx} (Intel VT-x) and {@code svm} (AMD-V) are what KVM needs; {@code hypervisor} is the
 * CPUID bit a hypervisor sets for its guests (Intel SDM vol. 2A, CPUID leaf 1, ECX bit 31).
 */
public final class CpuFlags {

    private static final Pattern FLAGS = Pattern.compile("^flags\\s*:(.*)$", Pattern.MULTILINE);

    private CpuFlags() {}

    /**
     * @param cpuinfo the text of {@code /proc/cpuinfo}
     * @return its first flags line's flags; empty when the text is null or has no flags line (e.g. a
     *     CPU architecture whose cpuinfo lists none)
     */
    public static Optional<Set<String>> of(String cpuinfo) {
        Matcher flags = cpuinfo == null ? null : FLAGS.matcher(cpuinfo);
        if (flags == null || !flags.find()) {
            return Optional.empty();
        }
        return Optional.of(Arrays.stream(flags.group(1).trim().split("\\s+")).collect(Collectors.toUnmodifiableSet()));
    }

    /** Whether the flags offer hardware virtualization to guests (vmx or svm). */
    public static boolean offerVirtualization(Set<String> flags) {
        return flags.contains("vmx") || flags.contains("svm");
    }
}
