-- Comparison runs (issue 29): a run of 2 to 4 Spaces measured interleaved. compare_entries holds
-- its entries as JSON, [{"label": "A", "space": {…spec with its channels…}}, …] (tokens sealed as
-- in space_spec); null for a run of one Space and every run stored before. kind and space_spec
-- hold the first entry's.
ALTER TABLE run ADD COLUMN compare_entries VARCHAR(65536);
-- Which entry a sample belongs to, by its label; null outside a comparison (the floor's samples
-- too, which belong to the run). samples.csv gains the column "entry" at its end.
ALTER TABLE sample ADD COLUMN entry VARCHAR(40);
-- The stored pieces (V9) are the rows formatted without it: dropped, so that an older run's
-- samples.csv is formatted afresh from its rows, with the new cell empty.
DELETE FROM sample_csv_piece;
