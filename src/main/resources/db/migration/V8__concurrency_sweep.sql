-- The concurrency sweep (issue 13). A sample of a sweep carries its level (Spaces busy at once)
-- and which of them took it (1..level); both null for every other sample.
ALTER TABLE sample ADD COLUMN level INTEGER;
ALTER TABLE sample ADD COLUMN space_index INTEGER;
-- A sweep's figures are results of their own metric ids (sweep.<level>.<metric>), pooled over
-- the level's Spaces, with what only a sweep has: its level, the p50 of its fastest and slowest
-- Space, round trips (or transfers, or Spaces made ready) per second over the level, and the wall
-- time from the level's start to its last sample in ns.
ALTER TABLE metric_result ADD COLUMN level INTEGER;
ALTER TABLE metric_result ADD COLUMN fastest_space_p50_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN slowest_space_p50_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN per_second DOUBLE PRECISION;
ALTER TABLE metric_result ADD COLUMN wall_ns BIGINT;
