package dev.spacebench.run;

import java.util.List;
import java.util.stream.Stream;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.data.jpa.repository.JpaRepository;

public interface RunSampleRepository extends JpaRepository<RunSample, Long> {

    long countByRunId(Long runId);

    /** In insertion order; stream it inside a read-only transaction. */
    Stream<RunSample> streamByRunIdOrderByIdAsc(Long runId);

    /** The measured, successful samples of one metric in ns, ascending: what the figures are computed from. */
    @Query("select s.ns from RunSample s where s.runId = :runId and s.metric = :metric and s.phase = 'measured' "
            + "and s.ok = true order by s.ns")
    List<Long> measuredNs(@Param("runId") Long runId, @Param("metric") String metric);
}
