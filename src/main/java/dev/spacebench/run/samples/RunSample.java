package dev.spacebench.run.samples;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One stored sample (see {@code measure.Sample}); written in batches of up to 500. */
@Entity
@Table(name = "sample")
public class RunSample {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "sample_seq")
    @SequenceGenerator(name = "sample_seq", sequenceName = "sample_seq", allocationSize = 500)
    private Long id;

    @Column(name = "run_id", nullable = false)
    private Long runId;

    @Column(nullable = false, length = 64)
    private String metric;

    @Column(nullable = false)
    private int iteration;

    /** "warmup" or "measured". */
    @Column(nullable = false, length = 16)
    private String phase;

    @Column(nullable = false)
    private long ns;

    @Column(nullable = false)
    private long bytes;

    @Column(nullable = false)
    private boolean ok;

    @Column(length = 1000)
    private String error;

    /** The agent's own time inside ns (see {@code measure.Sample#agentNs}); null where it reports none. */
    @Column(name = "agent_ns")
    private Long agentNs;

    /** A sweep's level; null outside a sweep. */
    @Column(name = "level")
    private Integer level;

    /** Which of the level's Spaces took it, 1..level; null outside a sweep. */
    @Column(name = "space_index")
    private Integer spaceIndex;

    /** An interleaved run's block of the series (measure.Sample#block); null otherwise. */
    @Column(name = "block")
    private Integer block;

    /** Its place in the run's interleaved part (measure.Sample#seq); null otherwise. */
    @Column(name = "seq")
    private Long seq;

    /** A comparison run's entry (its label) the sample belongs to; null outside one and for the floor (issue 29). */
    @Column(name = "entry", length = 40)
    private String entry;

    protected RunSample() {}

    public RunSample(Long runId, String metric, int iteration, String phase, long ns, long bytes, boolean ok, String error) {
        this.runId = runId;
        this.metric = metric;
        this.iteration = iteration;
        this.phase = phase;
        this.ns = ns;
        this.bytes = bytes;
        this.ok = ok;
        this.error = error == null ? null : error.length() > 1000 ? error.substring(0, 997) + "..." : error;
    }

    public RunSample(Long runId, String metric, int iteration, String phase, long ns, long bytes, boolean ok, String error, Long agentNs) {
        this(runId, metric, iteration, phase, ns, bytes, ok, error);
        this.agentNs = agentNs;
    }

    /** As the constructor above, for a sample of a sweep. */
    public RunSample(Long runId, String metric, int iteration, String phase, long ns, long bytes, boolean ok, String error, Long agentNs,
                     Integer level, Integer spaceIndex) {
        this(runId, metric, iteration, phase, ns, bytes, ok, error, agentNs);
        this.level = level;
        this.spaceIndex = spaceIndex;
    }

    /** As the constructor above, with an interleaved run's block and place. */
    public RunSample(Long runId, String metric, int iteration, String phase, long ns, long bytes, boolean ok, String error, Long agentNs,
                     Integer level, Integer spaceIndex, Integer block, Long seq) {
        this(runId, metric, iteration, phase, ns, bytes, ok, error, agentNs, level, spaceIndex);
        this.block = block;
        this.seq = seq;
    }

    /** Set by {@link SampleBatches}, which writes samples without JPA. */
    void assignId(long id) { this.id = id; }

    public Long getId() { return id; }
    public Long getRunId() { return runId; }
    public String getMetric() { return metric; }
    public int getIteration() { return iteration; }
    public String getPhase() { return phase; }
    public long getNs() { return ns; }
    public long getBytes() { return bytes; }
    public boolean isOk() { return ok; }
    public String getError() { return error; }
    public Long getAgentNs() { return agentNs; }
    public Integer getLevel() { return level; }
    public Integer getSpaceIndex() { return spaceIndex; }
    public Integer getBlock() { return block; }
    public Long getSeq() { return seq; }
    public String getEntry() { return entry; }

    /** @return this, belonging to the comparison entry labelled {@code label} (null: none) */
    public RunSample inEntry(String label) {
        this.entry = label;
        return this;
    }
}
