-- Interleaved runs (issue 29): a sample taken in an interleaved run's blocks carries its block of
-- its series (1..blocks) and its place in the run's interleaved part (1, 2, ... across every
-- series, in the order taken); both null for every other sample and for runs stored before.
ALTER TABLE sample ADD COLUMN block INTEGER;
ALTER TABLE sample ADD COLUMN seq BIGINT;
-- samples.csv gains those two columns. The stored pieces (V9) are copies of the rows formatted
-- with the old ten columns: dropped, so that an older run's samples.csv is formatted afresh from
-- its rows, with the two cells empty.
DELETE FROM sample_csv_piece;
