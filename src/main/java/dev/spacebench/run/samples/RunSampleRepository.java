package dev.spacebench.run.samples;

import org.springframework.data.jpa.repository.JpaRepository;

/** Writes samples and counts them; reads of many samples go through {@link SampleRows}, row by row. */
public interface RunSampleRepository extends JpaRepository<RunSample, Long> {

    long countByRunId(Long runId);
}
