package dev.spacebench.run;

import dev.spacebench.environment.Build;
import dev.spacebench.environment.Environment;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One benchmark run. Space spec, plan, environment and build are stored as JSON text (see
 * {@link JsonColumns}) so that what was asked for and what it ran on are kept exactly.
 */
@Entity
@Table(name = "run")
public class Run {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "run_seq")
    @SequenceGenerator(name = "run_seq", sequenceName = "run_seq", allocationSize = 1)
    private Long id;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private RunStatus status;

    @Column(nullable = false, length = 32)
    private String kind;

    @Column(name = "space_spec", nullable = false, length = 65536)
    @Convert(converter = JsonColumns.SpaceSpecColumn.class)
    private SpaceSpec spaceSpec;

    @Column(nullable = false, length = 65536)
    @Convert(converter = JsonColumns.PlanColumn.class)
    private Plan plan;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "failure_reason", length = 4000)
    private String failureReason;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(length = 255)
    private String worker;

    @Column(name = "progress_metric", length = 64)
    private String progressMetric;

    @Column(name = "progress_phase", length = 16)
    private String progressPhase;

    @Column(name = "progress_iteration")
    private Integer progressIteration;

    @Column(name = "progress_iterations")
    private Integer progressIterations;

    @Column(name = "progress_done", nullable = false)
    private long progressDone;

    @Column(name = "progress_total", nullable = false)
    private long progressTotal;

    @Column(length = 65536)
    @Convert(converter = JsonColumns.EnvironmentColumn.class)
    private Environment environment;

    @Column(length = 4000)
    @Convert(converter = JsonColumns.BuildColumn.class)
    private Build build;

    /** Samples stored, counted when the run finished with all of them saved; null before, or when some were lost. */
    @Column(name = "sample_count")
    private Long sampleCount;

    /** The testbed the run asked for (set at submit) or, when it named none, the one that took it. */
    @Column(length = 64)
    private String testbed;

    /** True when the figures were computed after the run ended INTERRUPTED, from its stored samples ({@link InterruptedRunFigures}). */
    @Column(name = "figures_from_stored_samples", nullable = false)
    private boolean figuresFromStoredSamples;

    /** A comparison run's entries, the first's Space in kind and spaceSpec (issue 29); null for a run of one Space. */
    @Column(name = "compare_entries", length = 65536)
    @Convert(converter = JsonColumns.CompareEntriesColumn.class)
    private java.util.List<CompareEntry> compareEntries;

    protected Run() {}

    public Run(String kind, SpaceSpec spaceSpec, Plan plan, long progressTotal, Instant createdAt) {
        this.status = RunStatus.QUEUED;
        this.kind = kind;
        this.spaceSpec = spaceSpec;
        this.plan = plan;
        this.progressTotal = progressTotal;
        this.createdAt = createdAt;
    }

    public Long getId() { return id; }
    public RunStatus getStatus() { return status; }
    public String getKind() { return kind; }
    /** As stored: an attach token sealed (see {@link SpaceSpec#forStorage()}). */
    public SpaceSpec getSpaceSpec() { return spaceSpec; }
    public Plan getPlan() { return plan; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getStartedAt() { return startedAt; }
    public Instant getFinishedAt() { return finishedAt; }
    public String getFailureReason() { return failureReason; }
    public boolean isCancelRequested() { return cancelRequested; }
    public String getWorker() { return worker; }
    public String getProgressMetric() { return progressMetric; }
    public String getProgressPhase() { return progressPhase; }
    public Integer getProgressIteration() { return progressIteration; }
    public Integer getProgressIterations() { return progressIterations; }
    public long getProgressDone() { return progressDone; }
    public long getProgressTotal() { return progressTotal; }
    /** Null until the run's Space answered. */
    public Environment getEnvironment() { return environment; }
    public Build getBuild() { return build; }
    public Long getSampleCount() { return sampleCount; }
    public void setSampleCount(Long sampleCount) { this.sampleCount = sampleCount; }
    public String getTestbed() { return testbed; }
    /** A comparison run's entries in request order, specs as stored (tokens sealed); null for a run of one Space. */
    public java.util.List<CompareEntry> getCompareEntries() { return compareEntries; }
    public void setCompareEntries(java.util.List<CompareEntry> entries) { this.compareEntries = entries; }
    /** Whether this is a comparison run ({@link #getCompareEntries()}). */
    public boolean isComparison() { return compareEntries != null; }
    public boolean isFiguresFromStoredSamples() { return figuresFromStoredSamples; }
    void setFiguresFromStoredSamples(boolean fromStored) { this.figuresFromStoredSamples = fromStored; }

    public void setEnvironment(Environment environment) { this.environment = environment; }
    public void setBuild(Build build) { this.build = build; }
    public void setTestbed(String testbed) { this.testbed = testbed; }

    /** Ends the run; the failure reason is cut to what the column holds. */
    public void finish(RunStatus finalStatus, String reason, Instant at) {
        this.status = finalStatus;
        this.failureReason = reason == null ? null : reason.length() > 4000 ? reason.substring(0, 3997) + "..." : reason;
        this.finishedAt = at;
    }
}
