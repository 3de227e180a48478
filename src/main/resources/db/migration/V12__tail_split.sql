-- Issue 10, section 3: what a metric's tail is made of, over its measured ok samples that carry
-- agent_ns (as the p50 split of V4). The tail is every such sample whose round trip (ns) is at or
-- above their p99 (nearest rank): tail_n of them; tail_agent_p50_ns is the p50 (nearest rank) of
-- their agent_ns, tail_rest_p50_ns the p50 of their ns - agent_ns. The slowest is the sample with
-- the largest ns (ties: the largest agent_ns); its agent_ns and ns - agent_ns. NULL where the
-- metric has no such sample and in runs stored before this.
ALTER TABLE metric_result ADD COLUMN tail_p99_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN tail_n INTEGER;
ALTER TABLE metric_result ADD COLUMN tail_agent_p50_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN tail_rest_p50_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN slowest_agent_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN slowest_rest_ns BIGINT;
