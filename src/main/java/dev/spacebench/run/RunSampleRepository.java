package dev.spacebench.run;

import java.util.stream.Stream;
import org.springframework.data.jpa.repository.JpaRepository;

public interface RunSampleRepository extends JpaRepository<RunSample, Long> {

    long countByRunId(Long runId);

    /** In insertion order; stream it inside a read-only transaction. */
    Stream<RunSample> streamByRunIdOrderByIdAsc(Long runId);
}
