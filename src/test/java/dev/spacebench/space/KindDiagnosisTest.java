package dev.spacebench.space;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Which host setting a failed kind check is blamed on, and the fix named for it. */
class KindDiagnosisTest {

    // What bwrap 0.8 prints when the namespace limit is 0, as AgentProcess reports it.
    private static final String ENOSPC = "the agent exited before it was ready (exit code 1); stderr: bwrap: Creating new "
            + "namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)";

    private static Function<String, Optional<String>> host(Map<String, String> sysctls) {
        return name -> Optional.ofNullable(sysctls.get(name));
    }

    @Test
    void noUserNamespacesAllowedNamesTheSysctlAndItsFix() {
        KindDiagnosis.Diagnosis d = KindDiagnosis.of("sandbox", ENOSPC, host(Map.of("user.max_user_namespaces", "0")));
        assertThat(d.reason()).isEqualTo("bwrap cannot create a user namespace: user.max_user_namespaces is 0");
        assertThat(d.fix()).startsWith("set sysctl user.max_user_namespaces=15000");
    }

    @Test
    void debiansSwitchAndAppArmorsRestrictionAreNamedWhenTheLimitIsNotZero() {
        String eperm = "stderr: bwrap: No permissions to creating new namespace, likely because the kernel does not allow "
                + "non-privileged user namespaces";
        assertThat(KindDiagnosis.of("sandbox", eperm, host(Map.of("user.max_user_namespaces", "63000",
                "kernel.unprivileged_userns_clone", "0"))).fix()).isEqualTo("set sysctl kernel.unprivileged_userns_clone=1");
        assertThat(KindDiagnosis.of("sandbox", eperm, host(Map.of("kernel.apparmor_restrict_unprivileged_userns", "1")))
                .reason()).contains("AppArmor restricts unprivileged user namespaces");
    }

    @Test
    void anUnknownNamespaceFailureQuotesBwrap() {
        KindDiagnosis.Diagnosis d = KindDiagnosis.of("sandbox", ENOSPC, host(Map.of("user.max_user_namespaces", "15000")));
        assertThat(d.reason()).isEqualTo("bwrap cannot create its namespaces: bwrap: Creating new namespace failed: "
                + "nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)");
        assertThat(d.fix()).contains("allow user namespaces");
    }

    @Test
    void containerAndOtherFailuresKeepTheirOwnWords() {
        KindDiagnosis.Diagnosis container = KindDiagnosis.of("container", "Error: crun: creating cgroup: Permission denied",
                host(Map.of()));
        assertThat(container.reason()).endsWith("Error: crun: creating cgroup: Permission denied");
        assertThat(container.fix()).contains("/etc/containers/containers.conf").contains("cgroup_manager = \"cgroupfs\"");
        assertThat(KindDiagnosis.of("vm", "qemu: could not load kernel", host(Map.of())).reason())
                .isEqualTo("a vm Space could not be made here: qemu: could not load kernel");
    }
}
