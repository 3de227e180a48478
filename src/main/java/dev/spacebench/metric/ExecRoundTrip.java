package dev.spacebench.metric;

import dev.spacebench.plan.ExecMetric;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The round trip of one exec call into the Space: {@code exec.noop}, {@code exec.true}, {@code exec.sh_c}. */
public enum ExecRoundTrip implements Metric {
    NOOP(ExecMetric.NOOP, "no-op", "noop", List.of(FloorMetric.GRPC_NOOP)),
    TRUE(ExecMetric.TRUE, "true", "true", List.of(FloorMetric.SPAWN_TRUE, FloorMetric.HYPERFINE_TRUE)),
    SH_C(ExecMetric.SH_C, "sh -c true", "sh -c true", List.of(FloorMetric.SPAWN_SH_C, FloorMetric.HYPERFINE_SH_C));

    static final String PREFIX = "exec.";

    private final ExecMetric command;
    private final String shortLabel;
    private final String listLabel;
    private final List<FloorMetric> floors;

    ExecRoundTrip(ExecMetric command, String shortLabel, String listLabel, List<FloorMetric> floors) {
        this.command = command;
        this.shortLabel = shortLabel;
        this.listLabel = listLabel;
        this.floors = floors;
    }

    /** The plan's exec metric it times (wire name, argv). */
    public ExecMetric command() {
        return command;
    }

    public static ExecRoundTrip of(ExecMetric command) {
        return values()[command.ordinal()];
    }

    /** @param wireName a plan's exec metric name, e.g. "sh_c" */
    public static Optional<ExecRoundTrip> fromWireName(String wireName) {
        return ExecMetric.fromWireName(wireName).map(ExecRoundTrip::of);
    }

    /** "exec.noop", "exec.true", "exec.sh_c", in this order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(ExecRoundTrip::id).toList();
    }

    /** @param id a stored id, e.g. "exec.sh_c"; empty for any other */
    public static Optional<ExecRoundTrip> fromId(String id) {
        return Arrays.stream(values()).filter(m -> m.id().equals(id)).findFirst();
    }

    @Override
    public String id() {
        return PREFIX + command.wireName();
    }

    /** "no-op RPC", "true", "sh -c true". */
    @Override
    public String label() {
        return command.label();
    }

    /** In a sentence beside its floor: "no-op", "true", "sh -c true". */
    public String shortLabel() {
        return shortLabel;
    }

    /** In one-line run summaries: "noop", "true", "sh -c true". */
    public String listLabel() {
        return listLabel;
    }

    @Override
    public Kind kind() {
        return Kind.EXEC;
    }

    /**
     * no-op → bare gRPC ping; true → host spawn of true, then hyperfine -N true; sh -c true → host
     * spawn of sh -c true, then hyperfine -N 'sh -c true'.
     */
    @Override
    public List<FloorMetric> floors() {
        return floors;
    }

    @Override
    public int group() {
        return 1;
    }

    @Override
    public long rank() {
        return ordinal();
    }
}
