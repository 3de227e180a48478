package dev.spacebench.benchmark;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One run that answered a benchmark, and when it was published; the newest is the current answer. */
@Entity
@Table(name = "benchmark_run")
public class BenchmarkRun {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "benchmark_run_seq")
    @SequenceGenerator(name = "benchmark_run_seq", sequenceName = "benchmark_run_seq", allocationSize = 1)
    private Long id;

    @Column(name = "benchmark_id", nullable = false)
    private Long benchmarkId;

    @Column(name = "run_id", nullable = false)
    private Long runId;

    @Column(name = "published_at", nullable = false)
    private Instant publishedAt;

    protected BenchmarkRun() {}

    public BenchmarkRun(Long benchmarkId, Long runId, Instant publishedAt) {
        this.benchmarkId = benchmarkId;
        this.runId = runId;
        this.publishedAt = publishedAt;
    }

    public Long getBenchmarkId() {
        return benchmarkId;
    }

    public Long getRunId() {
        return runId;
    }

    public Instant getPublishedAt() {
        return publishedAt;
    }
}
