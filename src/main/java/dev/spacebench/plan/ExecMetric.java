package dev.spacebench.plan;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The exec round trips a plan can measure. The wire name is what REST bodies use; the metric id
 * results and exports use is {@link dev.spacebench.metric.ExecRoundTrip#id()}.
 */
public enum ExecMetric {
    /** The no-op RPC: the transport and the agent's dispatch, no process. */
    NOOP("noop", "no-op RPC", List.of()),
    /** {@code true} started directly by the agent (no shell). */
    TRUE("true", "true", List.of("true")),
    /** {@code sh -c true}: a shell that starts {@code true}. */
    SH_C("sh_c", "sh -c true", List.of("sh", "-c", "true"));

    private final String wireName;
    private final String label;
    private final List<String> argv;

    ExecMetric(String wireName, String label, List<String> argv) {
        this.wireName = wireName;
        this.label = label;
        this.argv = argv;
    }

    public String wireName() {
        return wireName;
    }

    /** How pages name it, e.g. "sh -c true". */
    public String label() {
        return label;
    }

    /** The argv the agent runs; empty for the no-op. */
    public List<String> argv() {
        return argv;
    }

    public static Optional<ExecMetric> fromWireName(String name) {
        return Arrays.stream(values()).filter(m -> m.wireName.equals(name)).findFirst();
    }

    /**
     * The typed form of a validated plan's list of wire names, in its order.
     *
     * @throws IllegalStateException naming the first name that is not one of {@link #wireNames()}
     *     (a plan that skipped {@link PlanValidator})
     */
    public static List<ExecMetric> parse(List<String> names) {
        return names.stream().map(name -> fromWireName(name).orElseThrow(() -> new IllegalStateException(
                "exec metric " + Shown.quote(name) + " is not one of " + wireNames() + ": the plan was not validated"))).toList();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(ExecMetric::wireName).toList();
    }
}
