package dev.spacebench.publish;

import dev.spacebench.measure.MetricIds;
import dev.spacebench.run.MetricResult;
import dev.spacebench.run.RunJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The floor table, and the plain-words statement of what the Space added above it. */
final class Floor {

    private static final Map<String, String> LABELS = Map.of(
            MetricIds.FLOOR_TIMER, "System.nanoTime: smallest step seen",
            MetricIds.FLOOR_SPAWN_TRUE, "start true on the host (the agent's Exec code, in the app's JVM)",
            MetricIds.FLOOR_SPAWN_SH_C, "start sh -c true on the host (likewise)",
            MetricIds.FLOOR_HYPERFINE_TRUE, "hyperfine -N true on the host",
            MetricIds.FLOOR_GRPC_PING, "bare gRPC ping over loopback TCP (no Space, no token)");

    private Floor() {}

    /** How pages name a floor metric. */
    static String label(String metric) {
        return LABELS.getOrDefault(metric, metric);
    }

    static List<RunReport.FloorRow> rows(List<MetricResult> results, RunJson json) {
        List<RunReport.FloorRow> rows = new ArrayList<>();
        for (String metric : List.of(MetricIds.FLOOR_TIMER, MetricIds.FLOOR_SPAWN_TRUE, MetricIds.FLOOR_SPAWN_SH_C,
                MetricIds.FLOOR_HYPERFINE_TRUE, MetricIds.FLOOR_GRPC_PING)) {
            RunReportBuilder.find(results, metric).filter(r -> r.getP50Ns() != null).ifPresent(r -> rows.add(new RunReport.FloorRow(metric,
                    LABELS.get(metric),
                    RunReport.Figure.of(r.getP50Ns(), json.intervals(r).get("p50"), "p50", r.getN()),
                    RunReport.Figure.of(r.getP99Ns(), json.intervals(r).get("p99"), "p99", r.getN()), r.getN())));
        }
        return rows;
    }

    /**
     * Per exec metric, how much its p50 lies above the matching floor p50, e.g. "true: the Space
     * added 0.40 ms (+18%) above starting true on the host (2.51 ms against 2.11 ms, p50)".
     */
    static List<String> aboveFloor(List<MetricResult> results, String kind, String network) {
        List<String> lines = new ArrayList<>();
        boolean unix = network != null && network.startsWith("unix");
        compare(lines, results, kind, "exec.true", "true", MetricIds.FLOOR_SPAWN_TRUE, "starting true on the host");
        compare(lines, results, kind, "exec.true", "true", MetricIds.FLOOR_HYPERFINE_TRUE, "hyperfine -N true");
        compare(lines, results, kind, "exec.sh_c", "sh -c true", MetricIds.FLOOR_SPAWN_SH_C, "starting sh -c true on the host");
        compare(lines, results, kind, "exec.noop", "no-op", MetricIds.FLOOR_GRPC_PING, unix
                ? "a bare gRPC ping over loopback TCP (this Space is reached through a unix socket: not the same transport)"
                : "a bare gRPC ping");
        return lines;
    }

    private static void compare(List<String> lines, List<MetricResult> results, String kind, String metric, String label,
                                String floorMetric, String floorLabel) {
        Optional<MetricResult> space = RunReportBuilder.find(results, metric).filter(r -> r.getP50Ns() != null);
        Optional<MetricResult> floor = RunReportBuilder.find(results, floorMetric).filter(r -> r.getP50Ns() != null && r.getP50Ns() > 0);
        if (space.isEmpty() || floor.isEmpty()) {
            return;
        }
        long a = space.get().getP50Ns();
        long b = floor.get().getP50Ns();
        long added = a - b;
        String percent = Format.significant(100.0 * added / b);
        String verb = added >= 0 ? "added " + Format.duration(added) + " (+" + percent + "%) above "
                : "came in " + Format.duration(-added) + " (" + percent + "%) below ";
        lines.add(label + ": the " + kind + " Space " + verb + floorLabel + " (" + Format.duration(a) + " against "
                + Format.duration(b) + ", p50).");
    }
}
