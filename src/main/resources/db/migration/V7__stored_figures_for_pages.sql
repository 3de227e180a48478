-- What pages and plots read instead of the samples (issue 14).
-- The samples at the percentile plot's 37 points, computed once when a metric finishes, so that
-- pages and plots read no sample: "n;max;v0,v1,…,v36" in ns (stats.PercentileTable). Null for
-- runs stored before it was kept; their plots read the samples.
ALTER TABLE metric_result ADD COLUMN percentile_table VARCHAR(2000);
-- Samples stored, counted once when the run finished with every one saved; null for earlier runs
-- and for runs that lost some (their pages count the rows).
ALTER TABLE run ADD COLUMN sample_count BIGINT;
