-- The kinds a worker is still checking (comma-separated), so that a 400 at submit can say "still
-- checking" rather than list a testbed as making nothing while its checks run.
ALTER TABLE fleet_worker ADD COLUMN checking VARCHAR(1000) DEFAULT '' NOT NULL;
