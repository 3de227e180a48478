-- Whether a run's figures were computed after it ended INTERRUPTED, from the samples it had stored
-- (its app was killed, or its worker's lease ran out), rather than by its worker as the run ended.
ALTER TABLE run ADD COLUMN figures_from_stored_samples BOOLEAN DEFAULT FALSE NOT NULL;
