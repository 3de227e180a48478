package dev.spacebench.run;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

public interface MetricResultRepository extends JpaRepository<MetricResult, Long> {

    List<MetricResult> findByRunIdOrderByPositionAsc(Long runId);

    void deleteByRunId(Long runId);
}
