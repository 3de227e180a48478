-- An interleaved run's block medians (issue 29): per series and block, the nearest-rank median of
-- the block's measured, successful samples, stored with the run's final figures (beside
-- sorted_samples) so that a page pairs and plots them without reading the run's samples. data is
-- the blocks in ascending order, each a 4-byte block number then an 8-byte median in ns (big-endian).
CREATE TABLE block_median (
    run_id BIGINT      NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    metric VARCHAR(64) NOT NULL,
    blocks INTEGER     NOT NULL,
    data   BYTEA       NOT NULL,
    PRIMARY KEY (run_id, metric)
);
