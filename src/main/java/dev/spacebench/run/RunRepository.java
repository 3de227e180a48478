package dev.spacebench.run;

import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.JpaSpecificationExecutor;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

public interface RunRepository extends JpaRepository<Run, Long>, JpaSpecificationExecutor<Run> {

    Optional<Run> findFirstByStatusOrderByCreatedAtAscIdAsc(RunStatus status);

    List<Run> findByStatusAndWorker(RunStatus status, String worker);

    List<Run> findByStatusInOrderByCreatedAtAscIdAsc(Collection<RunStatus> statuses);

    List<Run> findByFinishedAtNotNullOrderByFinishedAtDescIdDesc(Pageable pageable);

    /** Every kind some stored run has, for the runs filter. */
    @Query("select distinct r.kind from Run r")
    List<String> findDistinctKinds();

    /** Every testbed some stored run named or ran on, in name order, for the runs filter. */
    @Query("select distinct r.testbed from Run r where r.testbed is not null order by r.testbed")
    List<String> findDistinctTestbeds();

    /** The run, its row locked until the transaction ends (a lease expiring meanwhile waits, or is seen). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select r from Run r where r.id = :id")
    Optional<Run> lockById(@Param("id") long id);

    /** Takes a queued run for one worker; 1 when this worker got it, 0 when another was first. */
    @Modifying
    @Transactional
    @Query("update Run r set r.status = dev.spacebench.run.RunStatus.RUNNING, r.worker = :worker, r.startedAt = :now "
            + "where r.id = :id and r.status = dev.spacebench.run.RunStatus.QUEUED")
    int claim(@Param("id") long id, @Param("worker") String worker, @Param("now") Instant now);

    @Modifying
    @Transactional
    @Query("update Run r set r.progressMetric = :metric, r.progressPhase = :phase, r.progressIteration = :iteration, "
            + "r.progressIterations = :iterations, r.progressDone = :done, r.progressTotal = :total where r.id = :id")
    int updateProgress(@Param("id") long id, @Param("metric") String metric, @Param("phase") String phase,
                       @Param("iteration") int iteration, @Param("iterations") int iterations,
                       @Param("done") long done, @Param("total") long total);

    @Modifying(clearAutomatically = true)
    @Transactional
    @Query("update Run r set r.cancelRequested = true where r.id = :id")
    int requestCancel(@Param("id") long id);

    @Query("select r.cancelRequested from Run r where r.id = :id")
    boolean isCancelRequested(@Param("id") long id);

    /** Cancels a run only while it is still queued; 1 when it was. */
    @Modifying(clearAutomatically = true)
    @Transactional
    @Query("update Run r set r.status = dev.spacebench.run.RunStatus.CANCELLED, r.finishedAt = :now, "
            + "r.failureReason = 'cancelled by request before it started', r.cancelRequested = true "
            + "where r.id = :id and r.status = dev.spacebench.run.RunStatus.QUEUED")
    int cancelQueued(@Param("id") long id, @Param("now") Instant now);
}
