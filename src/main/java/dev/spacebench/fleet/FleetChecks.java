package dev.spacebench.fleet;

import dev.spacebench.request.FieldError;
import dev.spacebench.run.TestbedCheck;
import dev.spacebench.plan.Shown;
import dev.spacebench.space.KindStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Whether a run's testbed and kind can be served, at submit: a named testbed must have a live
 * worker that makes the kind; a run naming none needs this app's own worker to make it (when that
 * worker is on, or no worker is live at all: the bench command, a server waiting for its fleet) or
 * any live worker that does. The errors list what is available.
 */
@Component
public class FleetChecks implements TestbedCheck {

    private final Workers workers;
    private final WorkerIdentity identity;

    public FleetChecks(Workers workers, WorkerIdentity identity) {
        this.workers = workers;
        this.identity = identity;
    }

    /**
     * @param testbed the testbed the run names, or null
     * @param kind a known kind
     * @param here what this app's own check of the kind found
     * @return the errors (field {@code testbed} or {@code space.kind}); empty when some worker can take the run
     */
    @Override
    public List<FieldError> check(String testbed, String kind, KindStatus here) {
        if (testbed != null && !WorkerIdentity.NAME.matcher(testbed).matches()) {
            return List.of(new FieldError("testbed", "must be 1 to 64 letters, digits, '.', '-' or '_', was " + Shown.quote(testbed)));
        }
        Map<String, Set<String>> live = workers.liveTestbeds();
        Map<String, Set<String>> checking = workers.liveChecking();
        if (testbed != null) {
            if (!live.containsKey(testbed)) {
                return List.of(new FieldError("testbed", "must be a testbed with a live worker (" + describe(live, checking) + "); was "
                        + Shown.quote(testbed)));
            }
            if (!live.get(testbed).contains(kind)) {
                return List.of(new FieldError("space.kind", "'" + kind + "' cannot be made on testbed '" + testbed + "' ("
                        + describe(Map.of(testbed, live.get(testbed)), checking) + "); testbeds that make it: " + makers(live, kind)));
            }
            return List.of();
        }
        boolean hereCounts = identity.enabled() || live.isEmpty();
        if (hereCounts && !here.failed()) {
            return List.of();
        }
        if (live.values().stream().anyMatch(kinds -> kinds.contains(kind))) {
            return List.of();
        }
        if (hereCounts) {
            return List.of(new FieldError("space.kind", "'" + kind + "' is not available on this host: " + here.reasonAndFix()
                    + (live.isEmpty() ? "" : "; no live worker makes it either (" + describe(live, checking) + ")")));
        }
        return List.of(new FieldError("space.kind", "no live worker can make '" + kind + "' (" + describe(live, checking) + ")"));
    }

    /**
     * In plain words: "tb-a makes process and sandbox; tb-b makes process and is still checking vm;
     * tb-c is still checking which kinds it can make (process, sandbox)", or "no worker is live".
     *
     * @param live the kinds each live testbed makes
     * @param checking the kinds each live testbed is still checking (testbeds missing here check none)
     */
    static String describe(Map<String, Set<String>> live, Map<String, Set<String>> checking) {
        if (live.isEmpty()) {
            return "no worker is live";
        }
        return live.entrySet().stream().map(e -> {
            Set<String> pending = checking.getOrDefault(e.getKey(), Set.of());
            if (e.getValue().isEmpty()) {
                return e.getKey() + (pending.isEmpty() ? " makes no kind of Space"
                        : " is still checking which kinds it can make (" + String.join(", ", pending) + ")");
            }
            return e.getKey() + " makes " + and(e.getValue()) + (pending.isEmpty() ? "" : " and is still checking " + and(pending));
        }).collect(Collectors.joining("; "));
    }

    private static String and(Set<String> kinds) {
        List<String> list = List.copyOf(kinds);
        return list.size() == 1 ? list.get(0)
                : String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
    }

    private static String makers(Map<String, Set<String>> live, String kind) {
        List<String> makers = live.entrySet().stream().filter(e -> e.getValue().contains(kind)).map(Map.Entry::getKey).toList();
        return makers.isEmpty() ? "none" : String.join(", ", makers);
    }
}
