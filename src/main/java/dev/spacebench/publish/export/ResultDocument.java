package dev.spacebench.publish.export;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.run.ComparisonFigures;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.stats.PercentileInterval;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * result.json, schema {@value #SCHEMA}. Times in ns; throughput in MiB/s (2^20 bytes per MiB) at
 * the p50; percentiles by nearest rank, exactly as {@code definitions} states. Fields are only
 * ever added within a schema version, never renamed or removed.
 *
 * <p>{@code comparison}: a comparison run's entries side by side (issue 29), each exec metric's p50
 * per entry and each entry's ratio to the first with its 95% interval ({@link ComparisonFigures});
 * null for a run of one Space. The entries' ratios are there only: {@code paired} holds the other ratios.
 *
 * <p>{@code paired}: every other ratio the run compares (each Space metric over its floor, each channel's over the
 * agent's) and its drift check (issues 29 and 27); added within v1. Both lists come from one computation,
 * {@link dev.spacebench.stats.PairedRatio#byBlock}. What a channel could not do is in {@code environment}'s Space
 * facts ("not measured: &lt;metric&gt;" → the reason), once.
 */
public record ResultDocument(
        String schema,
        RunInfo run,
        SpaceSpec space,
        Plan plan,
        Environment environment,
        Build build,
        Definitions definitions,
        List<MetricFigures> metrics,
        Concurrency concurrency,
        ComparisonFigures.Figures comparison,
        Paired paired) {

    public static final String SCHEMA = "spacebench.result/v1";

    /**
     * Every ratio the run compares besides a comparison run's entries (those are in {@code comparison}), and its
     * drift check (issues 29 and 27); added within v1 (a document written before it has no such field).
     *
     * @param interleaved whether the run was measured in interleaved blocks (else every ratio is unpaired)
     * @param ratios each Space metric over its floor, then each channel's metric over the agent's
     * @param drift the drift check of the series' block medians; null for a run without blocks
     */
    public record Paired(boolean interleaved, List<Ratio> ratios, DriftCheck drift) {
    }

    /**
     * numerator ÷ denominator of round-trip times (2.0: the numerator takes twice as long).
     *
     * @param kind "floor" (a Space metric over its floor) or "channel" (a channel's metric over the agent's)
     * @param channel the numerator's channel
     * @param metric the numerator's metric id
     * @param against the denominator's metric ids, added up per block (paired) or as p50s (unpaired)
     * @param ratio paired: exp of the Hodges-Lehmann estimate of the log-ratios of the paired block medians; unpaired:
     *     p50 / the denominators' p50s added up
     * @param lower the 95% interval's lower end; null when there is none (unpaired with two denominators, or too few
     *     blocks: fewer than 6 cannot bound a 95% Wilcoxon interval)
     * @param upper its upper end, likewise
     * @param paired whether block-paired
     * @param blocks the block pairs; null when unpaired
     * @param method how ratio and interval were computed
     */
    public record Ratio(String kind, String channel, String metric, List<String> against, double ratio, Double lower, Double upper,
                        double level, boolean paired, Integer blocks, String method) {
    }

    /**
     * @param method the test, in words
     * @param threshold the p-value under which a series trends: 0.05 / the series tested
     * @param series each series with at least 6 blocks
     */
    public record DriftCheck(String method, double threshold, List<DriftSeries> series) {
    }

    /**
     * @param blocks the block numbers, ascending; {@code mediansNs} each block's nearest-rank median, in that order
     * @param rho Spearman's rho of median against block; {@code p} its two-sided p-value (t-approximation)
     * @param slopeNsPerBlock the Theil-Sen slope
     * @param moveNs the slope times the blocks spanned; {@code movePercent} that over the median of the block medians
     * @param p50CiWidthNs the width of the series' p50 95% interval; null when none was stored
     * @param flagged p below the threshold and |moveNs| above p50CiWidthNs: the page's caveat
     */
    public record DriftSeries(String metric, List<Integer> blocks, List<Long> mediansNs, double rho, double p, double slopeNsPerBlock,
                              long moveNs, double movePercent, Long p50CiWidthNs, boolean flagged) {
    }

    public record RunInfo(long id, String status, String kind, Instant createdAt, Instant startedAt, Instant finishedAt,
                          String failureReason, long samples, String headline) {
    }

    public record Definitions(String percentile, String confidenceInterval, String throughput, String timer, String slowest,
                              String tail) {
        public static Definitions current() {
            return new Definitions(
                    "nearest rank: the p-th percentile of n sorted measured ok samples x[1..n] is x[k], k = max(1, ceil(p/100 * n))",
                    "95% distribution-free order-statistic interval (binomial method): ranks l < u in 0..n+1 with "
                            + "F(u-1) - F(l-1) >= 0.95, F the Binomial(n, p/100) CDF; chosen by fewest open ends, then smallest u - l, "
                            + "then largest coverage (ties within 1e-12), then smallest l; an open end is reported at the fastest or "
                            + "slowest sample with lowerBounded/upperBounded = false (Conover 1999, section 3.2)",
                    "MiB/s = bytes / 2^20 / (p50 ns / 1e9)",
                    "System.nanoTime on the host, from the client call to its verified reply",
                    "the largest measured ok sample",
                    "a split's tail: of the measured ok samples that carry agent_ns, those whose ns is at or above their p99 "
                            + "(ties included); tailAgentP50Ns and tailRestP50Ns are the p50 of their agent_ns and of their "
                            + "ns - agent_ns; the slowest is the one with the largest ns (ties: the largest agent_ns)");
        }
    }

    /**
     * One metric's figures. In result.json its fields are flat, in this order: metric, kind, bytes,
     * lane, then {@link Counts}', {@link Summary}'s, intervals, histogram, split, then
     * {@link LevelFigures}'; the groups exist only on the Java side ({@code @JsonUnwrapped}), and
     * are never null so their null fields are written as before.
     *
     * @param kind "space", "exec", "upload", "download" or "floor"
     * @param intervals 95% order-statistic confidence intervals of p50, p95, p99 (binomial method)
     * @param histogram base64 of the compressed HdrHistogram (3 significant digits) of the measured ok samples
     * @param split where the round trip went; null for metrics the agent reports no own time for
     */
    public record MetricFigures(String metric, String kind, long bytes, String lane, @JsonUnwrapped Counts counts,
                                @JsonUnwrapped Summary summary, Map<String, PercentileInterval> intervals, String histogram,
                                Split split, @JsonUnwrapped LevelFigures sweep) {
    }

    /** Measured samples behind the figures, untimed warm-ups, and measured iterations that failed. */
    public record Counts(int n, int warmups, int failures) {
    }

    /** The measured ok samples' figures, ns; {@code mibPerSecond} the size at the p50 (null without a size). */
    public record Summary(Long minNs, Long p50Ns, Long p95Ns, Long p99Ns, Long slowestNs, Double meanNs, Double stddevNs,
                          Double mibPerSecond) {
    }

    /**
     * @param level a concurrency sweep's level (Spaces busy at once) for its metrics ({@code sweep.L.*}); null for the others,
     *     as are the four fields after it
     * @param fastestSpaceP50Ns p50 of the level's fastest Space (each Space's own p50, nearest rank)
     * @param slowestSpaceP50Ns p50 of the level's slowest Space
     * @param perSecond measured ok samples of all the level's Spaces per second of {@code wallNs}
     * @param wallNs the level's wall time for this metric: from the start of its measured loops (ready: of the
     *     burst create; delete: of the deletes) to its last sample
     */
    public record LevelFigures(Integer level, Long fastestSpaceP50Ns, Long slowestSpaceP50Ns, Double perSecond, Long wallNs) {
    }

    /**
     * The concurrency sweep (issue 13); null in a run without one. Its figures are the metrics
     * {@code sweep.<level>.<metric>} in {@code metrics}; this section says how to read them.
     *
     * @param levels the plan's levels (Spaces busy at once)
     * @param hostCpus the host's CPU count; null when not recorded
     * @param kneeMetric the metric the knee is read on, e.g. {@code exec.sh_c}
     * @param singleSpaceP99Ns its single-Space p99 (the sweep's level 1, else the run's own loop); null when neither has one
     * @param kneeLevel the first level whose p99 exceeds twice {@code singleSpaceP99Ns}; null when none did
     * @param knee the page's sentence about it
     * @param rows per level and metric: the sweep metric id, its level and the metric measured
     */
    public record Concurrency(List<Integer> levels, Integer hostCpus, String kneeMetric, Long singleSpaceP99Ns,
                              Integer kneeLevel, String knee, List<ConcurrencyRow> rows) {
    }

    /** @param metric the metric measured, e.g. {@code exec.sh_c}; {@code id} the figures' metric in {@code metrics} */
    public record ConcurrencyRow(int level, String metric, String id) {
    }

    /**
     * The split of a metric's round trip, over its measured ok samples that carry {@code agent_ns}
     * in samples.csv, each a p50 by nearest rank.
     *
     * @param roundTripP50Ns p50 of ns (the metric's p50)
     * @param agentP50Ns p50 of agent_ns: in the Space, as the agent timed it (exec: spawn to reap;
     *     files: receive, hash, rename or read, hash, send)
     * @param restP50Ns p50 of ns - agent_ns per sample: transport and harness
     * @param roundTripP99Ns p99 of their ns; the tail is the samples at or above it ({@code definitions.tail});
     *     this and the fields after it are null in runs stored before they were kept
     * @param tailN how many samples the tail holds
     * @param tailAgentP50Ns p50 of the tail's agent_ns
     * @param tailRestP50Ns p50 of the tail's ns - agent_ns
     * @param slowestNs the slowest sample's ns (ties: the one with the largest agent_ns)
     * @param slowestAgentNs its agent_ns
     * @param slowestRestNs its ns - agent_ns
     */
    public record Split(Long roundTripP50Ns, Long agentP50Ns, Long restP50Ns, Long roundTripP99Ns, Integer tailN,
                        Long tailAgentP50Ns, Long tailRestP50Ns, Long slowestNs, Long slowestAgentNs, Long slowestRestNs) {
    }
}
