package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.environment.JvmGc;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.run.MetricResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * @param tail per exec metric with a stored tail split, one paragraph on what its tail is made of
 *     ({@code templates/text/prose/tail-exec.txt}), in the order of {@code exec}
 * @param noopTail the no-op's p99/p50 against the bare ping's in the same run
 *     ({@code prose/tail-noop.txt}); null unless the run has both
 * @param hostGc whether the host JVM's collections can be in the tail ({@code prose/tail-host-gc.txt}); null
 *     when the run stored no count of them or has no tail sentence
 */
public record Split(List<ExecSplit> exec, List<FileSplit> files, List<ReadyPart> ready, List<TailLine> tail, String noopTail,
                    String hostGc) {

    /** @param metric e.g. "exec.true"; {@code text} the paragraph */
    public record TailLine(String metric, String text) {
    }

    /**
     * What an exec metric's tail is made of (issue 10, section 3), from its stored tail split.
     *
     * @param p99 the p99 round trip; the tail is every sample at or above it
     * @param n how many samples that is
     * @param inSpace p50 of those samples' agent time
     * @param rest p50 of those samples' round trip minus agent time
     * @param slowest the slowest round trip; {@code slowestInSpace} and {@code slowestRest} its parts
     * @param from where the tail grew more from p50: "outside" (the rest grew more), "inside" or "both" (equally)
     */
    public record Tail(RunReport.Figure p99, int n, RunReport.Figure inSpace, RunReport.Figure rest, RunReport.Figure slowest,
                       RunReport.Figure slowestInSpace, RunReport.Figure slowestRest, String from) {
    }

    /**
     * @param noopRatio the no-op's p99 / p50, three significant digits; {@code pingRatio} the bare ping's
     * @param times noopRatio / pingRatio, three significant digits
     */
    public record NoopTail(RunReport.Figure noopP50, RunReport.Figure noopP99, String noopRatio,
                           RunReport.Figure pingP50, RunReport.Figure pingP99, String pingRatio, String times) {
    }

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
     * @param tail what its tail is made of; null for runs stored before the tail split was kept
     */
    public record ExecSplit(String metric, String label, RunReport.Figure roundTrip, RunReport.Figure inSpace, RunReport.Figure rest,
                            String floorLabel, RunReport.Figure floor, RunReport.Figure added, Long addedPercent, boolean below,
                            Tail tail) {
    }

    /** @param label "Space creation", "agent start", "first Ping" */
    public record ReadyPart(String metric, String label, String description, RunReport.Figure p50) {
    }

    public boolean isEmpty() {
        return exec.isEmpty() && files.isEmpty() && ready.isEmpty() && noopTail == null;
    }

    /** As {@link #of(List, Environment)} for a run without a stored environment. */
    public static Split of(List<MetricResult> results) {
        return of(results, null);
    }

    /** @param environment the run's; null when it has none */
    public static Split of(List<MetricResult> results, Environment environment) {
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
                        added == null || floor == 0 ? null : Math.round(100.0 * Math.abs(added) / floor), added != null && added < 0,
                        tail(r)));
            });
        }
        List<TailLine> tail = new ArrayList<>();
        for (ExecSplit row : exec) {
            if (row.tail() != null) {
                tail.add(new TailLine(row.metric(), String.join(" ", TextTemplates.paragraphs("prose/tail-exec", Map.of("row", row)))));
            }
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
        NoopTail noop = noopTail(results);
        String noopText = noop == null ? null : String.join(" ", TextTemplates.paragraphs("prose/tail-noop", Map.of("t", noop)));
        JvmGc gc = environment == null ? null : environment.hostGcInLoops();
        String hostGc = gc == null || tail.isEmpty() && noopText == null ? null
                : String.join(" ", TextTemplates.paragraphs("prose/tail-host-gc", Map.of("gc", gc, "ms", gc.timeNs() / 1_000_000)));
        return new Split(exec, files, ready, tail, noopText, hostGc);
    }

    private static Tail tail(MetricResult r) {
        if (r.getTailN() == null) {
            return null;
        }
        long grewInside = r.getTailAgentP50Ns() - r.getAgentP50Ns();
        long grewOutside = r.getTailRestP50Ns() - r.getRestP50Ns();
        String from = grewOutside > grewInside ? "outside" : grewInside > grewOutside ? "inside" : "both";
        return new Tail(RunReport.Figure.of(r.getTailP99Ns()), r.getTailN(), RunReport.Figure.of(r.getTailAgentP50Ns()),
                RunReport.Figure.of(r.getTailRestP50Ns()), RunReport.Figure.of(r.getSlowestSplitNs()),
                RunReport.Figure.of(r.getSlowestAgentNs()), RunReport.Figure.of(r.getSlowestRestNs()), from);
    }

    /** The no-op's p99/p50 against the bare ping's from the same run's floor; null without both (or a p50 of 0). */
    static NoopTail noopTail(List<MetricResult> results) {
        Optional<MetricResult> noop = RunReportBuilder.find(results, ExecRoundTrip.NOOP.id())
                .filter(r -> r.getP50Ns() != null && r.getP50Ns() > 0);
        Optional<MetricResult> ping = RunReportBuilder.find(results, FloorMetric.GRPC_NOOP.id())
                .filter(r -> r.getP50Ns() != null && r.getP50Ns() > 0);
        if (noop.isEmpty() || ping.isEmpty()) {
            return null;
        }
        double noopRatio = (double) noop.get().getP99Ns() / noop.get().getP50Ns();
        double pingRatio = (double) ping.get().getP99Ns() / ping.get().getP50Ns();
        return new NoopTail(RunReport.Figure.of(noop.get().getP50Ns()), RunReport.Figure.of(noop.get().getP99Ns()),
                Format.significant(noopRatio), RunReport.Figure.of(ping.get().getP50Ns()), RunReport.Figure.of(ping.get().getP99Ns()),
                Format.significant(pingRatio), Format.significant(noopRatio / pingRatio));
    }

    private static Optional<Long> p50(List<MetricResult> results, String metric) {
        return RunReportBuilder.find(results, metric).map(MetricResult::getP50Ns);
    }
}
