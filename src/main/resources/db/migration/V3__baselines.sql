-- Named baselines a run can be compared and checked against. A baseline either points at a run
-- (raw samples available) or carries summary figures only (imported result.json, published
-- references). figures is JSON: [{"metric": "exec.sh_c", "n": 300, "p50Ns": …, "p95Ns": …,
-- "p99Ns": …, "slowestNs": …, "mibPerSecond": null}, …]; environment is JSON of labelled facts.
-- Starts at 2: the built-in baseline below takes id 1 (a literal keeps the SQL portable).
CREATE SEQUENCE baseline_seq START WITH 2 INCREMENT BY 1;

CREATE TABLE baseline (
    id          BIGINT PRIMARY KEY,
    name        VARCHAR(64)    NOT NULL,
    label       VARCHAR(500)   NOT NULL,
    source      VARCHAR(16)    NOT NULL,
    run_id      BIGINT REFERENCES run (id) ON DELETE CASCADE,
    note        VARCHAR(2000),
    figures     VARCHAR(65536) NOT NULL,
    environment VARCHAR(65536),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT baseline_name UNIQUE (name)
);

-- Built in: the published Cua figures (summary only, no raw samples).
INSERT INTO baseline (id, name, label, source, run_id, note, figures, environment, created_at)
VALUES (1, 'cua-0.15.0',
        'Cua Spaces 0.15.0, Mac Studio M2 Max, QEMU VM via HVF, 2 vCPU / 2 GiB, 2026-10-25',
        'PUBLISHED', NULL,
        'published figures, no raw samples',
        '[{"metric":"exec.sh_c","n":300,"p50Ns":878000,"p95Ns":961000,"p99Ns":1022000,"slowestNs":1060000,"mibPerSecond":null}]',
        '{"Host":"Mac Studio (Apple M2 Max)","CPU":"Apple M2 Max","OS":"macOS (host)","Space kind":"vm","Virtualization":"QEMU with HVF (hardware acceleration)","Shape":"2 vCPU / 2 GiB","Agent":"Cua Spaces 0.15.0","Measured":"2026-10-25"}',
        TIMESTAMP WITH TIME ZONE '2026-10-25 00:00:00+00');
