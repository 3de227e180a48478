package dev.spacebench.publish;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.metric.Metric;
import dev.spacebench.metric.Via;
import dev.spacebench.run.MetricResult;
import dev.spacebench.stats.PairedRatio;
import dev.spacebench.stats.RatioOfMedians;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every ratio one run compares (issue 29, point 3), from its stored samples: each exec metric of the Space over
 * its floor (the no-op over the bare gRPC ping; {@code true} and {@code sh -c true} over hyperfine's start of the
 * same command, else the agent's Exec code on the host, plus the bare ping: the floor {@link Split.Added} reads the
 * Space's figure against), and each channel's metric over the agent's same metric.
 *
 * <p>In an interleaved run both sides were measured in blocks taken in turn: the ratio is {@link PairedRatio#byBlock}
 * (the one paired-ratio computation, also behind a comparison run's entries and {@code /compare}), the
 * Hodges–Lehmann estimate on the log-ratios of the paired block medians with the Wilcoxon signed-rank 95% interval.
 * A floor made of two loops has, per block, the sum of their block medians as its side. Only blocks both sides have
 * are paired. A series without blocks (a sequential run, the file loops) gives the unpaired ratio of the two p50s:
 * with a percentile-bootstrap interval ({@link RatioOfMedians}, seed {@link Split#BOOTSTRAP_SEED}) where the floor is
 * one series and its sorted samples are stored, else with none. An unpaired interval cannot see drift between the
 * two stretches; the page says so.
 *
 * @param pairs the floor pairs (no-op, true, sh -c true), then the channels' by channel and metric in page order
 */
public record PairedFigures(List<Pair> pairs) {

    /** The side of the ratio that is compared against, by what it is. */
    public static final String FLOOR = "floor";
    public static final String CHANNEL = "channel";

    /**
     * One ratio, numerator over denominator, of p50-like round trips (so "2×" is twice as slow).
     *
     * @param kind {@value #FLOOR} or {@value #CHANNEL}
     * @param channel the numerator's channel ({@code agent} for a floor pair)
     * @param metric the numerator's metric id, e.g. {@code exec.sh_c} or {@code via.ssh.exec.true}
     * @param label e.g. "sh -c true" or "true over ssh"
     * @param against the denominator's metric ids, added up per block (or p50s added up when unpaired)
     * @param againstLabel e.g. "hyperfine -N 'sh -c true' plus a bare gRPC ping" or "the agent"
     * @param ratio the estimate
     * @param lower the interval's lower end; null without one (or when the blocks are too few to bound it, with
     *     {@code bounded} false)
     * @param upper its upper end; null likewise
     * @param paired whether block-paired (else the unpaired ratio of the p50s)
     * @param blocks the block pairs behind a paired figure; null when unpaired
     * @param bounded whether an interval with both ends was computed
     * @param method how the figure and its interval were computed, in words
     */
    public record Pair(String kind, String channel, String metric, String label, List<String> against, String againstLabel,
                       double ratio, Double lower, Double upper, boolean paired, Integer blocks, boolean bounded, String method,
                       String ratioText, String ciText) {

        /** Whether the interval holds 1 (the two cannot be told apart); false without an interval. */
        public boolean includesOne() {
            return bounded && lower <= 1 && upper >= 1;
        }
    }

    /** What is compared with what, before any figure is computed. */
    record Candidate(String kind, String channel, String metric, String label, List<String> against, String againstLabel) {
    }

    /** What an unpaired figure without an interval says it is. */
    static final String UNPAIRED_POINT = "ratio of the p50s, unpaired (the two were measured in separate stretches); no interval";
    static final String UNPAIRED_BOOTSTRAP = "ratio of the p50s, unpaired (the two were measured in separate stretches), with the "
            + "percentile-bootstrap 95% interval (Efron & Tibshirani 1993, ch. 13), which cannot account for drift between them";

    public boolean isEmpty() {
        return pairs.isEmpty();
    }

    public List<Pair> floors() {
        return pairs.stream().filter(p -> p.kind().equals(FLOOR)).toList();
    }

    public List<Pair> channels() {
        return pairs.stream().filter(p -> p.kind().equals(CHANNEL)).toList();
    }

    /** The pair whose numerator is {@code metric} of {@code kind}, if the run has it. */
    public Optional<Pair> find(String kind, String metric) {
        return pairs.stream().filter(p -> p.kind().equals(kind) && p.metric().equals(metric)).findFirst();
    }

    /** Whether any pair is block-paired: the run was interleaved. */
    public boolean anyPaired() {
        return pairs.stream().anyMatch(Pair::paired);
    }

    /**
     * What the run compares, from its stored figures: the exec metrics measured over their floor (the same floor
     * {@link Split} reads the "added" figure against), then every channel's exec or file metric over the agent's.
     */
    static List<Candidate> candidates(List<MetricResult> results) {
        List<Candidate> candidates = new ArrayList<>();
        Optional<MetricResult> ping = measured(results, FloorMetric.GRPC_NOOP.id());
        for (ExecRoundTrip metric : ExecRoundTrip.values()) {
            if (ping.isEmpty() || measured(results, metric.id()).isEmpty()) {
                continue;
            }
            List<FloorMetric> parts = new ArrayList<>();
            if (metric != ExecRoundTrip.NOOP) {
                // As Split.added: hyperfine where it ran, else the agent's own Exec code on the host.
                Optional<FloorMetric> command = metric.floors().stream().filter(FloorMetric::isHyperfine)
                        .filter(f -> measured(results, f.id()).isPresent()).findFirst()
                        .or(() -> metric.floors().stream().filter(f -> !f.isHyperfine())
                                .filter(f -> measured(results, f.id()).isPresent()).findFirst());
                if (command.isEmpty()) {
                    continue;
                }
                parts.add(command.get());
            }
            parts.add(FloorMetric.GRPC_NOOP);
            candidates.add(new Candidate(FLOOR, Via.AGENT, metric.id(), metric.shortLabel(), parts.stream().map(FloorMetric::id).toList(),
                    String.join(" plus ", parts.stream().map(FloorMetric::comparedAs).toList())));
        }
        List<MetricResult> byPage = results.stream()
                .filter(r -> Metric.parse(r.getMetric()).orElse(null) instanceof Via && r.getN() > 0 && r.getP50Ns() != null)
                .sorted(java.util.Comparator.comparing((MetricResult r) -> ((Via) Metric.of(r.getMetric())).channel())
                        .thenComparing(r -> Metric.of(r.getMetric()), Metric.PAGE_ORDER))
                .toList();
        for (MetricResult r : byPage) {
            Via via = (Via) Metric.of(r.getMetric());
            if (measured(results, via.base().id()).isPresent()) {
                candidates.add(new Candidate(CHANNEL, via.channel(), via.id(), via.label(), List.of(via.base().id()), "the agent"));
            }
        }
        return candidates;
    }

    /** Every metric whose sorted samples an unpaired interval may need: the candidates' both sides. */
    static Set<String> metrics(List<Candidate> candidates) {
        Set<String> metrics = new LinkedHashSet<>();
        for (Candidate c : candidates) {
            metrics.add(c.metric());
            metrics.addAll(c.against());
        }
        return metrics;
    }

    /**
     * @param results the run's stored figures
     * @param blocks metric → (block → median ns), from {@code run.samples.BlockMedians}; empty for a run without blocks
     * @param sorted metric → its measured ok samples (for the unpaired intervals); may miss any metric
     */
    public static PairedFigures of(List<MetricResult> results, Map<String, SortedMap<Integer, Long>> blocks, Map<String, long[]> sorted) {
        List<Pair> pairs = new ArrayList<>();
        for (Candidate c : candidates(results)) {
            pairs.add(pair(c, results, blocks, sorted));
        }
        return new PairedFigures(List.copyOf(pairs));
    }

    private static Pair pair(Candidate c, List<MetricResult> results, Map<String, SortedMap<Integer, Long>> blocks,
                             Map<String, long[]> sorted) {
        SortedMap<Integer, Long> a = blocks.getOrDefault(c.metric(), new TreeMap<>());
        SortedMap<Integer, Long> b = sum(c.against().stream().map(m -> blocks.getOrDefault(m, new TreeMap<>())).toList());
        Optional<PairedRatio> paired = PairedRatio.byBlock(a, b);
        if (paired.isPresent()) {
            PairedRatio p = paired.get();
            return new Pair(c.kind(), c.channel(), c.metric(), c.label(), c.against(), c.againstLabel(), p.ratio(),
                    p.bounded() ? p.lower() : null, p.bounded() ? p.upper() : null, true, p.blocks(), p.bounded(), PairedRatio.METHOD,
                    times(p.ratio()), p.bounded() ? times(p.lower()) + " – " + times(p.upper()) : null);
        }
        long top = measured(results, c.metric()).orElseThrow().getP50Ns();
        long bottom = c.against().stream().mapToLong(m -> measured(results, m).orElseThrow().getP50Ns()).sum();
        double ratio = (double) top / bottom;
        long[] topSamples = sorted.get(c.metric());
        long[] bottomSamples = c.against().size() == 1 ? sorted.get(c.against().get(0)) : null;
        if (topSamples != null && topSamples.length > 0 && bottomSamples != null && bottomSamples.length > 0) {
            RatioOfMedians r = RatioOfMedians.of(topSamples, bottomSamples, Split.BOOTSTRAP_SEED);
            return new Pair(c.kind(), c.channel(), c.metric(), c.label(), c.against(), c.againstLabel(), ratio, r.lower(), r.upper(),
                    false, null, true, UNPAIRED_BOOTSTRAP, times(ratio), times(r.lower()) + " – " + times(r.upper()));
        }
        return new Pair(c.kind(), c.channel(), c.metric(), c.label(), c.against(), c.againstLabel(), ratio, null, null, false, null,
                false, UNPAIRED_POINT, times(ratio), null);
    }

    /** Per block, the sum of the series' block medians, for the blocks every series has (empty without a series). */
    static SortedMap<Integer, Long> sum(List<SortedMap<Integer, Long>> series) {
        SortedMap<Integer, Long> total = new TreeMap<>();
        if (series.isEmpty()) {
            return total;
        }
        for (Integer block : series.get(0).keySet()) {
            if (series.stream().allMatch(s -> s.containsKey(block))) {
                total.put(block, series.stream().mapToLong(s -> s.get(block)).sum());
            }
        }
        return total;
    }

    /** "1.43×": three significant digits. */
    static String times(double ratio) {
        return Format.significant(ratio) + "×";
    }

    private static Optional<MetricResult> measured(List<MetricResult> results, String metric) {
        return RunReportBuilder.find(results, metric).filter(r -> r.getN() > 0 && r.getP50Ns() != null && r.getP50Ns() > 0);
    }
}
