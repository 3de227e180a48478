package dev.spacebench.run;

import dev.spacebench.stats.PercentileInterval;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.util.Map;

/**
 * The figures of one metric in one run, computed from its measured, successful samples. Times in
 * ns; percentiles by nearest rank (see {@code stats.Percentiles}). The figure columns are null
 * when no sample succeeded.
 */
@Entity
@Table(name = "metric_result")
public class MetricResult {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "metric_result_seq")
    @SequenceGenerator(name = "metric_result_seq", sequenceName = "metric_result_seq", allocationSize = 50)
    private Long id;

    @Column(name = "run_id", nullable = false)
    private Long runId;

    @Column(nullable = false, length = 64)
    private String metric;

    /** Order on the page: the order the plan measured them in. */
    @Column(nullable = false)
    private int position;

    /** File size for file metrics, 0 for exec and Space metrics. */
    @Column(nullable = false)
    private long bytes;

    @Column(length = 16)
    private String lane;

    /** Measured samples that succeeded: the figures' n. */
    @Column(nullable = false)
    private int n;

    @Column(nullable = false)
    private int warmups;

    /** Measured iterations that failed (warm-up failures are in the samples, not here). */
    @Column(nullable = false)
    private int failures;

    @Column(name = "min_ns") private Long minNs;
    @Column(name = "p50_ns") private Long p50Ns;
    @Column(name = "p95_ns") private Long p95Ns;
    @Column(name = "p99_ns") private Long p99Ns;
    @Column(name = "max_ns") private Long maxNs;
    @Column(name = "mean_ns") private Double meanNs;
    @Column(name = "stddev_ns") private Double stddevNs;

    /** The 95% confidence intervals of p50, p95 and p99, stored as JSON; null without figures. */
    @Column(length = 4000)
    @Convert(converter = JsonColumns.IntervalsColumn.class)
    private Map<String, PercentileInterval> intervals;

    /** Base64 of the compressed HdrHistogram (3 significant digits) of the measured samples. */
    @Column(length = 65536)
    private String histogram;

    /**
     * The samples at the percentile plot's points ({@code stats.PercentileTable#encode}); null for
     * runs stored before it was kept, and when no sample succeeded.
     */
    @Column(name = "percentile_table", length = 2000)
    private String percentileTable;

    /**
     * The split (issue 10), over the measured ok samples that carry the agent's own time: p50 of
     * that time and p50 of the rest (round trip minus it, per sample), nearest rank; null for
     * metrics the agent reports no time for.
     */
    @Column(name = "agent_p50_ns") private Long agentP50Ns;
    @Column(name = "rest_p50_ns") private Long restP50Ns;

    /**
     * The tail's split (issue 10, section 3), over the same samples as the split: the p99 of their
     * round trips (nearest rank); how many of them are at or above it; the p50 of those samples'
     * agent time and of their rest; and the slowest sample's agent time and rest (the slowest: the
     * largest round trip, ties broken by the larger agent time). Null where the split is.
     */
    @Column(name = "tail_p99_ns") private Long tailP99Ns;
    @Column(name = "tail_n") private Integer tailN;
    @Column(name = "tail_agent_p50_ns") private Long tailAgentP50Ns;
    @Column(name = "tail_rest_p50_ns") private Long tailRestP50Ns;
    @Column(name = "slowest_agent_ns") private Long slowestAgentNs;
    @Column(name = "slowest_rest_ns") private Long slowestRestNs;

    /** A sweep's figures (issue 13): its level; the others below are null outside a sweep. */
    @Column(name = "level") private Integer level;
    /** p50 of the level's fastest and slowest Space (each Space's own p50), ns. */
    @Column(name = "fastest_space_p50_ns") private Long fastestSpaceP50Ns;
    @Column(name = "slowest_space_p50_ns") private Long slowestSpaceP50Ns;
    /** Measured ok samples of all the level's Spaces per second of wall time. */
    @Column(name = "per_second") private Double perSecond;
    /** Wall time from the level's start (for this metric) to its last sample, ns. */
    @Column(name = "wall_ns") private Long wallNs;

    protected MetricResult() {}

    public MetricResult(Long runId, String metric, int position, long bytes, String lane, int n, int warmups, int failures,
                        Long minNs, Long p50Ns, Long p95Ns, Long p99Ns, Long maxNs, Double meanNs, Double stddevNs,
                        Map<String, PercentileInterval> intervals,
                        String histogram) {
        this.runId = runId;
        this.metric = metric;
        this.position = position;
        this.bytes = bytes;
        this.lane = lane;
        this.n = n;
        this.warmups = warmups;
        this.failures = failures;
        this.minNs = minNs;
        this.p50Ns = p50Ns;
        this.p95Ns = p95Ns;
        this.p99Ns = p99Ns;
        this.maxNs = maxNs;
        this.meanNs = meanNs;
        this.stddevNs = stddevNs;
        this.intervals = intervals;
        this.histogram = histogram;
    }

    /** As the other constructor, with the percentile table the plots read. */
    public MetricResult(Long runId, String metric, int position, long bytes, String lane, int n, int warmups, int failures,
                        Long minNs, Long p50Ns, Long p95Ns, Long p99Ns, Long maxNs, Double meanNs, Double stddevNs,
                        Map<String, PercentileInterval> intervals, String histogram, String percentileTable) {
        this(runId, metric, position, bytes, lane, n, warmups, failures, minNs, p50Ns, p95Ns, p99Ns, maxNs, meanNs, stddevNs,
                intervals, histogram);
        this.percentileTable = percentileTable;
    }

    public Long getId() { return id; }
    public Long getRunId() { return runId; }
    public String getMetric() { return metric; }
    public int getPosition() { return position; }
    public long getBytes() { return bytes; }
    public String getLane() { return lane; }
    public int getN() { return n; }
    public int getWarmups() { return warmups; }
    public int getFailures() { return failures; }
    public Long getMinNs() { return minNs; }
    public Long getP50Ns() { return p50Ns; }
    public Long getP95Ns() { return p95Ns; }
    public Long getP99Ns() { return p99Ns; }
    public Long getMaxNs() { return maxNs; }
    public Double getMeanNs() { return meanNs; }
    public Double getStddevNs() { return stddevNs; }
    /** The 95% intervals of p50, p95 and p99 by name; empty when the result has no figures. */
    public Map<String, PercentileInterval> getIntervals() { return intervals == null ? Map.of() : intervals; }
    public String getHistogram() { return histogram; }
    public String getPercentileTable() { return percentileTable; }
    public Long getAgentP50Ns() { return agentP50Ns; }
    public Long getRestP50Ns() { return restP50Ns; }
    public Long getTailP99Ns() { return tailP99Ns; }
    public Integer getTailN() { return tailN; }
    public Long getTailAgentP50Ns() { return tailAgentP50Ns; }
    public Long getTailRestP50Ns() { return tailRestP50Ns; }
    public Long getSlowestAgentNs() { return slowestAgentNs; }
    public Long getSlowestRestNs() { return slowestRestNs; }
    /**
     * The slowest round trip of the split's samples, ns: its two stored parts added back (the
     * tail's slowest, which can differ from {@link #getMaxNs()} when a sample has no agent time);
     * null where the split is.
     */
    public Long getSlowestSplitNs() { return slowestAgentNs == null || slowestRestNs == null ? null : slowestAgentNs + slowestRestNs; }

    public Integer getLevel() { return level; }
    public Long getFastestSpaceP50Ns() { return fastestSpaceP50Ns; }
    public Long getSlowestSpaceP50Ns() { return slowestSpaceP50Ns; }
    public Double getPerSecond() { return perSecond; }
    public Long getWallNs() { return wallNs; }

    /** Sets a sweep's figures; see the fields. */
    public void setSweep(int level, Long fastestSpaceP50Ns, Long slowestSpaceP50Ns, Double perSecond, Long wallNs) {
        this.level = level;
        this.fastestSpaceP50Ns = fastestSpaceP50Ns;
        this.slowestSpaceP50Ns = slowestSpaceP50Ns;
        this.perSecond = perSecond;
        this.wallNs = wallNs;
    }

    /** Sets the split; see the fields. */
    public void setSplit(Long agentP50Ns, Long restP50Ns) {
        this.agentP50Ns = agentP50Ns;
        this.restP50Ns = restP50Ns;
    }

    /** Sets the tail's split; see the fields. */
    public void setTailSplit(long tailP99Ns, int tailN, long tailAgentP50Ns, long tailRestP50Ns, long slowestAgentNs, long slowestRestNs) {
        this.tailP99Ns = tailP99Ns;
        this.tailN = tailN;
        this.tailAgentP50Ns = tailAgentP50Ns;
        this.tailRestP50Ns = tailRestP50Ns;
        this.slowestAgentNs = slowestAgentNs;
        this.slowestRestNs = slowestRestNs;
    }
}
