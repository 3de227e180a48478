package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.run.MetricResult;
import dev.spacebench.space.SpaceFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The floor table, and the plain-words statement of what the Space added above it. */
final class Floor {

    /** The order of the sentences that set an exec figure against its floors. */
    private static final List<ExecRoundTrip> ABOVE_FLOOR_ORDER = List.of(ExecRoundTrip.TRUE, ExecRoundTrip.SH_C, ExecRoundTrip.NOOP);

    private Floor() {}

    static List<RunReport.FloorRow> rows(List<MetricResult> results) {
        List<RunReport.FloorRow> rows = new ArrayList<>();
        for (FloorMetric metric : FloorMetric.values()) {
            RunReportBuilder.find(results, metric.id()).filter(r -> r.getP50Ns() != null).ifPresent(r -> rows.add(new RunReport.FloorRow(metric.id(),
                    metric.description(),
                    RunReport.Figure.of(r.getP50Ns(), r.getIntervals().get("p50"), "p50", r.getN()),
                    RunReport.Figure.of(r.getP99Ns(), r.getIntervals().get("p99"), "p99", r.getN()), r.getN())));
        }
        return rows;
    }

    /**
     * Per exec metric, how much its p50 lies above the matching floor p50, e.g. "true: the Space
     * added 0.40 ms (+18%) above starting true on the host (2.51 ms against 2.11 ms, p50)".
     */
    static List<String> aboveFloor(List<MetricResult> results, String kind, SpaceFacts.Transport transport) {
        List<String> lines = new ArrayList<>();
        boolean unix = transport == SpaceFacts.Transport.UNIX_SOCKET;
        for (ExecRoundTrip metric : ABOVE_FLOOR_ORDER) {
            for (FloorMetric floor : metric.floors()) {
                String floorLabel = floor == FloorMetric.GRPC_NOOP && unix
                        ? floor.comparedAs() + " over loopback TCP (this Space is reached through a unix socket: not the same transport)"
                        : floor.comparedAs();
                compare(lines, results, kind, metric, floor, floorLabel);
            }
        }
        return lines;
    }

    private static void compare(List<String> lines, List<MetricResult> results, String kind, ExecRoundTrip metric,
                                FloorMetric floorMetric, String floorLabel) {
        String label = metric.shortLabel();
        Optional<MetricResult> space = RunReportBuilder.find(results, metric.id()).filter(r -> r.getP50Ns() != null);
        Optional<MetricResult> floor = RunReportBuilder.find(results, floorMetric.id()).filter(r -> r.getP50Ns() != null && r.getP50Ns() > 0);
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
