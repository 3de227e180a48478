package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a 400 at submit says about the live testbeds, in plain words, while their kind checks run and after. */
class FleetChecksTest {

    @Test
    void aTestbedWhoseChecksHaveNotEndedIsStillCheckingNotEmpty() {
        // Right after start: the worker has registered, none of its checks has ended.
        assertThat(FleetChecks.describe(Map.of("vm", Set.of()), Map.of("vm", kinds("process", "sandbox", "container", "vm"))))
                .isEqualTo("vm is still checking which kinds it can make (process, sandbox, container, vm)");
    }

    @Test
    void madeAndPendingKindsAreListedPerTestbed() {
        Map<String, Set<String>> live = new LinkedHashMap<>();
        live.put("tb-a", kinds("process", "sandbox"));
        live.put("tb-b", kinds("process"));
        live.put("tb-c", Set.of());
        Map<String, Set<String>> checking = Map.of("tb-b", kinds("container", "vm"));
        assertThat(FleetChecks.describe(live, checking)).isEqualTo(
                "tb-a makes process and sandbox; tb-b makes process and is still checking container and vm; tb-c makes no kind of Space");
    }

    @Test
    void noLiveWorkerIsSaid() {
        assertThat(FleetChecks.describe(Map.of(), Map.of())).isEqualTo("no worker is live");
    }

    private static Set<String> kinds(String... names) {
        return new LinkedHashSet<>(List.of(names));
    }
}
