package dev.spacebench.benchmark;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

public interface BenchmarkRunRepository extends JpaRepository<BenchmarkRun, Long> {

    /** Newest first: the first is the current answer. */
    List<BenchmarkRun> findByBenchmarkIdOrderByPublishedAtDescIdDesc(Long benchmarkId);

    List<BenchmarkRun> findByRunId(Long runId);

    boolean existsByRunId(Long runId);

    void deleteByBenchmarkId(Long benchmarkId);
}
