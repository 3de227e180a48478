-- What a million-sample run's downloads and comparisons would otherwise rebuild from every row on
-- every request, stored once as the run goes. The sample rows stay the record; these are copies.
--
-- samples.csv's body in pieces, written by the worker as its batches commit: piece seq covers the
-- run's rows with ids after the previous piece's last_id, up to and including its own last_id, in
-- id order, formatted exactly as the export formats rows. Pieces are only ever a prefix of the
-- run's rows: the export copies them, then formats the rows after the last piece. body is the
-- text deflated (RFC 1951, no header).
CREATE TABLE sample_csv_piece (
    run_id    BIGINT  NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    last_id   BIGINT  NOT NULL,
    row_count INTEGER NOT NULL,
    body      BYTEA   NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Each metric's measured, successful samples in ns, ascending, as the run's figures were computed
-- from them: written with the run's final figures. The encoding is in SortedSamples.java.
CREATE TABLE sorted_samples (
    run_id BIGINT      NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    metric VARCHAR(64) NOT NULL,
    n      INTEGER     NOT NULL,
    data   BYTEA       NOT NULL,
    PRIMARY KEY (run_id, metric)
);
