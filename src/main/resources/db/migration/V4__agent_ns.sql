-- Issue 10: the split of a round trip. agent_ns is the agent's own time inside a sample (for exec:
-- spawn to reap of the command; for files: its receive/hash/rename or read/hash/send), NULL where
-- the agent reports none (no-op pings, the floor, Space lifecycle, runs stored before it existed).
-- A metric's split: p50 of agent_ns and p50 of (ns - agent_ns) over its measured ok samples that
-- carry agent_ns.
ALTER TABLE sample ADD COLUMN agent_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN agent_p50_ns BIGINT;
ALTER TABLE metric_result ADD COLUMN rest_p50_ns BIGINT;
