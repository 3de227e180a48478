package dev.spacebench.fleet;

import dev.spacebench.request.FieldError;
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
public class FleetChecks {

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
    public List<FieldError> check(String testbed, String kind, KindStatus here) {
        if (testbed != null && !WorkerIdentity.NAME.matcher(testbed).matches()) {
            return List.of(new FieldError("testbed", "must be 1 to 64 letters, digits, '.', '-' or '_', was " + Shown.quote(testbed)));
        }
        Map<String, Set<String>> live = workers.liveTestbeds();
        if (testbed != null) {
            if (!live.containsKey(testbed)) {
                return List.of(new FieldError("testbed", "must be a testbed with a live worker: " + describe(live) + "; was " + Shown.quote(testbed)));
            }
            if (!live.get(testbed).contains(kind)) {
                return List.of(new FieldError("space.kind", "'" + kind + "' cannot be made on testbed '" + testbed + "', which makes "
                        + live.get(testbed) + "; testbeds that make it: " + makers(live, kind)));
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
                    + (live.isEmpty() ? "" : "; no live worker makes it either (" + describe(live) + ")")));
        }
        return List.of(new FieldError("space.kind", "no live worker can make '" + kind + "'; live testbeds: " + describe(live)));
    }

    /** "tb-a (process, sandbox), tb-b (process)", or "none" when no worker is live. */
    static String describe(Map<String, Set<String>> live) {
        return live.isEmpty() ? "none" : live.entrySet().stream()
                .map(e -> e.getKey() + " (" + String.join(", ", e.getValue()) + ")").collect(Collectors.joining(", "));
    }

    private static String makers(Map<String, Set<String>> live, String kind) {
        List<String> makers = live.entrySet().stream().filter(e -> e.getValue().contains(kind)).map(Map.Entry::getKey).toList();
        return makers.isEmpty() ? "none" : String.join(", ", makers);
    }
}
