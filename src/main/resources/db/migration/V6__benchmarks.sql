-- Benchmarks: a published question (its slug), the run that answers it now, and the runs that
-- answered it before. A run listed here is published: it cannot be deleted.
CREATE SEQUENCE benchmark_seq START WITH 1 INCREMENT BY 1;
CREATE SEQUENCE benchmark_run_seq START WITH 1 INCREMENT BY 1;

CREATE TABLE benchmark (
    id         BIGINT PRIMARY KEY,
    slug       VARCHAR(64)   NOT NULL,
    question   VARCHAR(500)  NOT NULL,
    summary    VARCHAR(2000),
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT benchmark_slug UNIQUE (slug)
);

-- One row a run that answered a benchmark; the newest published_at is the current answer.
CREATE TABLE benchmark_run (
    id           BIGINT PRIMARY KEY,
    benchmark_id BIGINT NOT NULL REFERENCES benchmark (id) ON DELETE CASCADE,
    run_id       BIGINT NOT NULL REFERENCES run (id),
    published_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX benchmark_run_benchmark ON benchmark_run (benchmark_id, published_at);
CREATE INDEX benchmark_run_run ON benchmark_run (run_id);
