package dev.spacebench.baseline;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** A named set of figures to compare runs against (see V3__baselines.sql for the JSON columns). */
@Entity
@Table(name = "baseline")
public class Baseline {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "baseline_seq")
    @SequenceGenerator(name = "baseline_seq", sequenceName = "baseline_seq", allocationSize = 1)
    private Long id;

    @Column(nullable = false, length = 64)
    private String name;

    @Column(nullable = false, length = 500)
    private String label;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private BaselineSource source;

    @Column(name = "run_id")
    private Long runId;

    @Column(length = 2000)
    private String note;

    @Column(nullable = false, length = 65536)
    private String figures;

    @Column(length = 65536)
    private String environment;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Baseline() {}

    public Baseline(String name, String label, BaselineSource source, Long runId, String note, String figures,
                    String environment, Instant createdAt) {
        this.name = name;
        this.label = label;
        this.source = source;
        this.runId = runId;
        this.note = note;
        this.figures = figures;
        this.environment = environment;
        this.createdAt = createdAt;
    }

    public Long getId() { return id; }
    public String getName() { return name; }
    public String getLabel() { return label; }
    public BaselineSource getSource() { return source; }
    public Long getRunId() { return runId; }
    public String getNote() { return note; }
    public String getFigures() { return figures; }
    public String getEnvironment() { return environment; }
    public Instant getCreatedAt() { return createdAt; }
}
