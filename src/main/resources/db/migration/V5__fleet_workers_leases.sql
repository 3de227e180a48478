-- A fleet: workers on several machines (testbeds) share one database. Portable between H2 and PostgreSQL.
-- Each worker registers itself and heartbeats; it is live while heartbeat_at + lease_ms is in the future.
-- facts is JSON of the host ({"cpuModel": …, "cores": 8, "memoryBytes": …, "os": …, "kernel": …,
-- "arch": …, "kvm": true}); kinds lists the kinds of Space its checks made, comma-separated.
CREATE TABLE fleet_worker (
    id           VARCHAR(255)   PRIMARY KEY,
    testbed      VARCHAR(64)    NOT NULL,
    facts        VARCHAR(65536) NOT NULL,
    kinds        VARCHAR(1000)  NOT NULL,
    started_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    heartbeat_at TIMESTAMP WITH TIME ZONE NOT NULL,
    lease_ms     BIGINT         NOT NULL
);

-- testbed: the one a run asked for (set at submit) or the one that took it (set at claim).
-- lease_until: a RUNNING run whose lease has run out lost its worker and ends INTERRUPTED.
ALTER TABLE run ADD COLUMN testbed VARCHAR(64);
ALTER TABLE run ADD COLUMN lease_until TIMESTAMP WITH TIME ZONE;
CREATE INDEX run_testbed ON run (testbed);
CREATE INDEX run_status_lease ON run (status, lease_until);
