package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.run.MetricResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a run's time went (issue 10), for the run page's split tables and page.md: per exec metric the p50 of
 * the round trip, of the command inside the Space as the agent timed it, and of the rest; the same
 * per file transfer with the agent's own part of it; Space
 * ready in its three parts; and what the harness added above the floor.
 *
 * @param exec one row per exec metric the agent timed (not the no-op, which runs nothing)
 * @param files one row per file transfer metric the agent timed, in the run's order
 * @param ready ready's parts, empty when the agent reported no start time
 */
public record Split(List<ExecSplit> exec, List<FileSplit> files, List<ReadyPart> ready) {

    /**
     * @param label e.g. "upload 100 MiB"
     * @param roundTrip p50 of the whole transfer as the host timed it
     * @param inSpace p50 of the agent's own time: receive, hash and rename (upload) or read, hash
     *     and send (download)
     * @param rest p50 of the transfer minus the agent's time, per sample: the host's side and the transport
     */
    public record FileSplit(String metric, String label, RunReport.Figure roundTrip, RunReport.Figure inSpace, RunReport.Figure rest) {
    }

    /**
     * @param label e.g. "sh -c true"
     * @param roundTrip p50 of the round trip
     * @param inSpace p50 of the agent's own time (spawn to reap)
     * @param rest p50 of round trip minus the agent's time, per sample: transport and harness
     * @param floorLabel what the command alone on the host is, e.g. "hyperfine -N true"; null without it
     * @param floor its p50, plus the bare ping's p50 on the same transport; null without either
     * @param added how far the round trip lies from that floor (its size; see below); null without a floor
     * @param addedPercent that distance as a percentage of the floor, rounded; null without a floor
     * @param below true when the round trip came out under the floor (noise, or a faster spawn than hyperfine's)
     */
    public record ExecSplit(String metric, String label, RunReport.Figure roundTrip, RunReport.Figure inSpace, RunReport.Figure rest,
                            String floorLabel, RunReport.Figure floor, RunReport.Figure added, Long addedPercent, boolean below) {
    }

    /** @param label "Space creation", "agent start", "first Ping" */
    public record ReadyPart(String metric, String label, String description, RunReport.Figure p50) {
    }

    public boolean isEmpty() {
        return exec.isEmpty() && files.isEmpty() && ready.isEmpty();
    }

    public static Split of(List<MetricResult> results) {
        Optional<Long> ping = p50(results, FloorMetric.GRPC_NOOP.id());
        List<ExecSplit> exec = new ArrayList<>();
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            RunReportBuilder.find(results, metric.id()).filter(r -> r.getAgentP50Ns() != null).ifPresent(r -> {
                Optional<FloorMetric> hyperfine = metric.floors().stream()
                        .filter(f -> f.isHyperfine() && p50(results, f.id()).isPresent()).findFirst();
                Long floor = hyperfine.isPresent() && ping.isPresent() ? p50(results, hyperfine.get().id()).get() + ping.get() : null;
                Long added = floor == null ? null : r.getP50Ns() - floor;
                exec.add(new ExecSplit(r.getMetric(), metric.label(), RunReport.Figure.of(r.getP50Ns()),
                        RunReport.Figure.of(r.getAgentP50Ns()), RunReport.Figure.of(r.getRestP50Ns()),
                        hyperfine.map(FloorMetric::comparedAs).orElse(null), floor == null ? null : RunReport.Figure.of(floor),
                        added == null ? null : RunReport.Figure.of(Math.abs(added)),
                        added == null || floor == 0 ? null : Math.round(100.0 * Math.abs(added) / floor), added != null && added < 0));
            });
        }
        List<FileSplit> files = new ArrayList<>();
        for (MetricResult r : results) {
            if (r.getAgentP50Ns() != null && r.getRestP50Ns() != null && Metric.parse(r.getMetric()).orElse(null) instanceof Transfer t) {
                files.add(new FileSplit(r.getMetric(), t.label(), RunReport.Figure.of(r.getP50Ns()), RunReport.Figure.of(r.getAgentP50Ns()),
                        RunReport.Figure.of(r.getRestP50Ns())));
            }
        }
        List<ReadyPart> ready = new ArrayList<>();
        for (SpaceLifecycle part : List.of(SpaceLifecycle.READY_CREATE, SpaceLifecycle.READY_AGENT, SpaceLifecycle.READY_PING)) {
            p50(results, part.id()).ifPresent(ns -> ready.add(new ReadyPart(part.id(), part.label(), part.description(),
                    RunReport.Figure.of(ns))));
        }
        return new Split(exec, files, ready);
    }

    private static Optional<Long> p50(List<MetricResult> results, String metric) {
        return RunReportBuilder.find(results, metric).map(MetricResult::getP50Ns);
    }
}
