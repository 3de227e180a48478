package dev.spacebench.publish;

import dev.spacebench.environment.Environment;
import dev.spacebench.environment.JvmGc;
import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.SpaceLifecycle;
import dev.spacebench.metric.Transfer;
import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.DifferenceOfMedians;
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
 * @param added per exec metric measured against a floor, the one figure of what Spacebench and the Space added
 *     above it ({@code prose/added.txt}), in the order no-op, true, sh -c true
 */
public record Split(List<ExecSplit> exec, List<FileSplit> files, List<ReadyPart> ready, List<TailLine> tail, String noopTail,
                    String hostGc, List<Added> added) {

    /** Fixed, so a page says the same interval every time it is drawn. */
    static final long BOOTSTRAP_SEED = 20261203L;

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
     * @param tail what its tail is made of; null for runs stored before the tail split was kept
     */
    public record ExecSplit(String metric, String label, RunReport.Figure roundTrip, RunReport.Figure inSpace, RunReport.Figure rest,
                            Tail tail) {
    }

    /**
     * What Spacebench and the Space added to one exec metric: its p50 round trip less the floor's p50s added up
     * (the command on the host, by hyperfine where it ran, else by the agent's own Exec code in the measuring driver's JVM; plus
     * the bare gRPC ping; the no-op's floor is the bare ping alone). The page's only "added" figure for the metric.
     *
     * @param label e.g. "sh -c true"
     * @param floorLabel e.g. "hyperfine -N true plus a bare gRPC ping"
     * @param floorParts how many measurements the floor adds up (1: "takes", else "take")
     * @param added the distance of the round trip's p50 from the floor, its size; {@code below} says which side
     * @param addedPercent that distance as a percentage of the floor, rounded; null for a floor of 0
     * @param ci the bootstrap 95% interval of (round trip − floor), signed, e.g. "−40.0 µs to +310 µs"; null when
     *     the run's sorted samples are not stored (a run still going, or older than them)
     * @param withinNoise the interval holds zero, or the distance is under the timer's resolution
     * @param resolution the timer's smallest step measured in the run's floor; null when not measured
     * @param belowResolution the distance is under that step
     * @param otherTransport the bare ping went over TCP loopback while the Space is reached through a unix socket
     * @param text the sentence, from {@code prose/added.txt}
     * @param pair the same comparison as a ratio ({@link PairedFigures}); null when the run has none. When it is
     *     block-paired with a bounded interval, the sentence reads from it: within noise when its interval holds 1
     */
    public record Added(String metric, String label, RunReport.Figure roundTrip, String floorLabel, int floorParts,
                        RunReport.Figure floor, RunReport.Figure added, Long addedPercent, boolean below, String ci,
                        Long ciLowerNs, Long ciUpperNs, boolean withinNoise, RunReport.Figure resolution,
                        boolean belowResolution, boolean otherTransport, String text, PairedFigures.Pair pair) {

        /** Whether the sentence reads from a block-paired ratio with both ends of its interval. */
        public boolean pairedInterval() {
            return pair != null && pair.paired() && pair.bounded();
        }
    }

    /** @param label "Space creation", "agent start", "first Ping" */
    public record ReadyPart(String metric, String label, String description, RunReport.Figure p50) {
    }

    public boolean isEmpty() {
        return exec.isEmpty() && files.isEmpty() && ready.isEmpty() && noopTail == null && added.isEmpty();
    }

    /** As {@link #of(List, Environment)} for a run without a stored environment. */
    public static Split of(List<MetricResult> results) {
        return of(results, null);
    }

    /** As {@link #of(List, Environment, Map)} for a run without sorted samples: its "added" figures have no interval. */
    public static Split of(List<MetricResult> results, Environment environment) {
        return of(results, environment, Map.of());
    }

    /**
     * @param environment the run's; null when it has none
     * @param samples metric → its measured ok samples (any order), for the intervals of the "added" figures;
     *     those of {@link #comparedMetrics()} suffice; empty: no intervals
     */
    public static Split of(List<MetricResult> results, Environment environment, Map<String, long[]> samples) {
        return of(results, environment, samples, new PairedFigures(List.of()));
    }

    /**
     * As {@link #of(List, Environment, Map)}, each "added" sentence reading from the run's paired figures where it has
     * a block-paired one (issue 29: the harness line reads from the paired ratio and its interval).
     */
    public static Split of(List<MetricResult> results, Environment environment, Map<String, long[]> samples, PairedFigures paired) {
        List<ExecSplit> exec = new ArrayList<>();
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            RunReportBuilder.find(results, metric.id()).filter(r -> r.getAgentP50Ns() != null).ifPresent(r -> exec.add(
                    new ExecSplit(r.getMetric(), metric.label(), RunReport.Figure.of(r.getP50Ns()),
                            RunReport.Figure.of(r.getAgentP50Ns()), RunReport.Figure.of(r.getRestP50Ns()), tail(r))));
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
        return new Split(exec, files, ready, tail, noopText, hostGc, added(results, environment, samples, paired));
    }

    /** The metrics whose samples {@link #of(List, Environment, Map)} resamples: the exec metrics and the floors. */
    public static List<String> comparedMetrics() {
        List<String> metrics = new ArrayList<>(ExecRoundTrip.ids());
        for (FloorMetric floor : FloorMetric.values()) {
            if (floor != FloorMetric.TIMER) {
                metrics.add(floor.id());
            }
        }
        return metrics;
    }

    private static List<Added> added(List<MetricResult> results, Environment environment, Map<String, long[]> samples,
                                     PairedFigures paired) {
        Optional<MetricResult> ping = measured(results, FloorMetric.GRPC_NOOP.id());
        if (ping.isEmpty()) {
            return List.of();
        }
        Long resolution = p50(results, FloorMetric.TIMER.id()).orElse(null);
        boolean otherTransport = otherTransport(environment);
        List<Added> lines = new ArrayList<>();
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            Optional<MetricResult> space = measured(results, metric.id());
            if (space.isEmpty()) {
                continue;
            }
            List<MetricResult> parts = new ArrayList<>();
            if (metric != ExecRoundTrip.NOOP) {
                // hyperfine where it ran (issue 10's floor), else the same spawn by the agent's own Exec code.
                Optional<MetricResult> command = metric.floors().stream().filter(FloorMetric::isHyperfine)
                        .map(f -> measured(results, f.id())).flatMap(Optional::stream).findFirst()
                        .or(() -> metric.floors().stream().filter(f -> !f.isHyperfine())
                                .map(f -> measured(results, f.id())).flatMap(Optional::stream).findFirst());
                if (command.isEmpty()) {
                    continue;
                }
                parts.add(command.get());
            }
            parts.add(ping.get());
            lines.add(added(metric, space.get(), parts, resolution, otherTransport, samples,
                    paired.find(PairedFigures.FLOOR, metric.id()).orElse(null)));
        }
        return lines;
    }

    private static Added added(ExecRoundTrip metric, MetricResult space, List<MetricResult> parts, Long resolution,
                               boolean otherTransport, Map<String, long[]> samples, PairedFigures.Pair pair) {
        long floor = parts.stream().mapToLong(MetricResult::getP50Ns).sum();
        long difference = space.getP50Ns() - floor;
        String floorLabel = parts.stream().map(p -> ((FloorMetric) Metric.parse(p.getMetric()).orElseThrow()).comparedAs())
                .collect(java.util.stream.Collectors.joining(" plus "));
        DifferenceOfMedians interval = null;
        long[] measured = samples.get(space.getMetric());
        List<long[]> floorSamples = parts.stream().map(p -> samples.get(p.getMetric())).toList();
        if (measured != null && measured.length > 0 && floorSamples.stream().allMatch(f -> f != null && f.length > 0)) {
            interval = DifferenceOfMedians.of(measured, floorSamples, BOOTSTRAP_SEED);
        }
        boolean belowResolution = resolution != null && Math.abs(difference) < resolution;
        boolean pairedInterval = pair != null && pair.paired() && pair.bounded();
        boolean withinNoise = belowResolution || (pairedInterval ? pair.includesOne() : interval != null && interval.includesZero());
        Added line = new Added(space.getMetric(), metric.shortLabel(), RunReport.Figure.of(space.getP50Ns()), floorLabel,
                parts.size(), RunReport.Figure.of(floor), RunReport.Figure.of(Math.abs(difference)),
                floor == 0 ? null : Math.round(100.0 * Math.abs(difference) / floor), difference < 0,
                interval == null ? null : Format.signedDuration(interval.lowerNs()) + " to " + Format.signedDuration(interval.upperNs()),
                interval == null ? null : interval.lowerNs(), interval == null ? null : interval.upperNs(), withinNoise,
                resolution == null ? null : RunReport.Figure.of(resolution), belowResolution, otherTransport, null, pair);
        String text = String.join(" ", TextTemplates.paragraphs("prose/added", Map.of("a", line)));
        return new Added(line.metric(), line.label(), line.roundTrip(), line.floorLabel(), line.floorParts(), line.floor(),
                line.added(), line.addedPercent(), line.below(), line.ci(), line.ciLowerNs(), line.ciUpperNs(), line.withinNoise(),
                line.resolution(), line.belowResolution(), line.otherTransport(), text, pair);
    }

    /**
     * Whether the bare ping and the Space used different transports: the Space is reached through a unix socket
     * and the floor says its ping went over TCP (an attached agent's floor pings over TCP loopback).
     */
    private static boolean otherTransport(Environment environment) {
        if (environment == null || environment.spaceFacts() == null
                || environment.spaceFacts().transport() != dev.spacebench.space.SpaceFacts.Transport.UNIX_SOCKET) {
            return false;
        }
        String ping = environment.floor() == null ? null : environment.floor().get(FLOOR_PING_TRANSPORT);
        return ping == null || !ping.startsWith("unix socket");
    }

    /** The floor fact that names the bare ping's transport (measure.FloorLoops writes it). */
    static final String FLOOR_PING_TRANSPORT = "bare gRPC ping transport";

    private static Optional<MetricResult> measured(List<MetricResult> results, String metric) {
        return RunReportBuilder.find(results, metric).filter(r -> r.getP50Ns() != null);
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
