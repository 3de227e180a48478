-- Runs, their per-metric results, and every raw sample. Portable between H2 and PostgreSQL.
CREATE SEQUENCE run_seq START WITH 1 INCREMENT BY 1;
CREATE SEQUENCE metric_result_seq START WITH 1 INCREMENT BY 50;
CREATE SEQUENCE sample_seq START WITH 1 INCREMENT BY 500;

CREATE TABLE run (
    id                  BIGINT PRIMARY KEY,
    status              VARCHAR(16)    NOT NULL,
    kind                VARCHAR(32)    NOT NULL,
    space_spec          VARCHAR(65536) NOT NULL,
    plan                VARCHAR(65536) NOT NULL,
    created_at          TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at          TIMESTAMP WITH TIME ZONE,
    finished_at         TIMESTAMP WITH TIME ZONE,
    failure_reason      VARCHAR(4000),
    cancel_requested    BOOLEAN        NOT NULL,
    worker              VARCHAR(255),
    progress_metric     VARCHAR(64),
    progress_phase      VARCHAR(16),
    progress_iteration  INTEGER,
    progress_iterations INTEGER,
    progress_done       BIGINT         NOT NULL,
    progress_total      BIGINT         NOT NULL,
    environment         VARCHAR(65536),
    build               VARCHAR(4000)
);
CREATE INDEX run_status_created ON run (status, created_at);
CREATE INDEX run_created ON run (created_at);

CREATE TABLE metric_result (
    id         BIGINT PRIMARY KEY,
    run_id     BIGINT      NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    metric     VARCHAR(64) NOT NULL,
    position   INTEGER     NOT NULL,
    bytes      BIGINT      NOT NULL,
    lane       VARCHAR(16),
    n          INTEGER     NOT NULL,
    warmups    INTEGER     NOT NULL,
    failures   INTEGER     NOT NULL,
    min_ns     BIGINT,
    p50_ns     BIGINT,
    p95_ns     BIGINT,
    p99_ns     BIGINT,
    max_ns     BIGINT,
    mean_ns    DOUBLE PRECISION,
    stddev_ns  DOUBLE PRECISION,
    histogram  VARCHAR(65536),
    CONSTRAINT metric_result_run_metric UNIQUE (run_id, metric)
);

CREATE TABLE sample (
    id        BIGINT PRIMARY KEY,
    run_id    BIGINT      NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    metric    VARCHAR(64) NOT NULL,
    iteration INTEGER     NOT NULL,
    phase     VARCHAR(16) NOT NULL,
    ns        BIGINT      NOT NULL,
    bytes     BIGINT      NOT NULL,
    ok        BOOLEAN     NOT NULL,
    error     VARCHAR(1000)
);
CREATE INDEX sample_run ON sample (run_id, id);
