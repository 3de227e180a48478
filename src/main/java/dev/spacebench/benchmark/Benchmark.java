package dev.spacebench.benchmark;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** A published question under a stable slug (see V6__benchmarks.sql). */
@Entity
@Table(name = "benchmark")
public class Benchmark {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "benchmark_seq")
    @SequenceGenerator(name = "benchmark_seq", sequenceName = "benchmark_seq", allocationSize = 1)
    private Long id;

    @Column(nullable = false, length = 64)
    private String slug;

    @Column(nullable = false, length = 500)
    private String question;

    @Column(length = 2000)
    private String summary;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Benchmark() {}

    public Benchmark(String slug, String question, String summary, Instant createdAt) {
        this.slug = slug;
        this.question = question;
        this.summary = summary;
        this.createdAt = createdAt;
    }

    public Long getId() {
        return id;
    }

    public String getSlug() {
        return slug;
    }

    public String getQuestion() {
        return question;
    }

    public void setQuestion(String question) {
        this.question = question;
    }

    public String getSummary() {
        return summary;
    }

    public void setSummary(String summary) {
        this.summary = summary;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }
}
