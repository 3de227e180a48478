package dev.spacebench.run;

import dev.spacebench.database.DatabaseDisk;
import dev.spacebench.measure.Measurement;
import dev.spacebench.request.FieldError;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.Plans;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.run.validation.RunRequestValidator;
import dev.spacebench.space.SpaceSettings;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Queues, finds and cancels runs. The worker does the measuring. */
@Service
public class RunService {

    public static final double MAX_CPUS = RunRequestValidator.MAX_CPUS;
    public static final long MIN_MEMORY_MIB = RunRequestValidator.MIN_MEMORY_MIB;
    public static final long MAX_MEMORY_MIB = RunRequestValidator.MAX_MEMORY_MIB;

    private final RunRepository runs;
    private final MetricResultRepository results;
    private final Spaces spaces;
    private final QueueWaker worker;
    private final TestbedCheck fleet;
    private final PlanLimits limits;
    private final String defaultKind;
    private final DatabaseDisk disk;
    private final RunRequestValidator validator;

    public RunService(RunRepository runs, MetricResultRepository results, Spaces spaces, QueueWaker worker, TestbedCheck fleet,
                      PlanSettings plan, SpaceSettings space, DatabaseDisk disk) {
        this.disk = disk;
        this.runs = runs;
        this.results = results;
        this.spaces = spaces;
        this.worker = worker;
        this.fleet = fleet;
        this.limits = plan.limits();
        this.defaultKind = space.defaultKind();
        this.validator = new RunRequestValidator(spaces, fleet, limits, this::kindForRequest);
    }

    public PlanLimits limits() {
        return limits;
    }

    /**
     * The kind a request without one gets now: the configured {@code spacebench.space.default-kind},
     * or when that is blank, {@code sandbox} where its check made a sandbox here and {@code process}
     * elsewhere. Does not wait.
     *
     * @return null while sandbox is still being checked (a request then waits for the check)
     */
    public String defaultKind() {
        return defaultKind != null && !defaultKind.isBlank() ? defaultKind : spaces.defaultKind(Duration.ZERO);
    }

    /** As {@link #defaultKind()}, waiting a little for sandbox's check (then {@code process} if it is still running). */
    private String kindForRequest() {
        return defaultKind != null && !defaultKind.isBlank() ? defaultKind : spaces.defaultKindForRequest();
    }

    /**
     * Validates the request, fills in defaults, and queues the run.
     *
     * @throws InvalidRequestException naming every field outside its allowed range
     * @throws dev.spacebench.database.DatabaseUnavailableException while the database's disk is full
     */
    public Run submit(RunRequest request) {
        List<FieldError> errors = check(request);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        disk.requireRoom();
        SpaceSpec spec = spec(request);
        // The block order's seed is drawn here, once, and stored with the plan: the run can be replayed in the same order.
        Plan plan = Plans.withDefaults(request == null ? null : request.plan())
                .withSeedIfNone(java.util.concurrent.ThreadLocalRandom.current().nextLong());
        List<CompareEntry> entries = validator.entries(request);
        long units = entries == null ? Measurement.progressUnits(plan, spec.channelsOrDefault().size())
                : Measurement.progressUnits(plan, entries.stream().mapToInt(e -> e.space().channelsOrDefault().size()).sum());
        Run queued = new Run(spec.kind(), spec.forStorage(), plan, units, Instant.now());
        queued.setTestbed(request == null ? null : request.testbed());
        queued.setCompareEntries(entries);
        Run run = runs.save(queued);
        worker.wake();
        return run;
    }

    /**
     * Every problem of a request, without queueing it, in {@link RunRequestValidator}'s order.
     *
     * @return the errors in field order; empty when {@link #submit} would queue the request
     */
    public List<FieldError> check(RunRequest request) {
        return validator.check(request);
    }

    /** Every known kind, available here or not. */
    public java.util.Set<String> kinds() {
        return spaces.kinds().keySet();
    }

    /** The kinds the runs list can be filtered by: every known kind, and any other a stored run has. */
    public java.util.Set<String> listedKinds() {
        java.util.Set<String> kinds = new java.util.LinkedHashSet<>(kinds());
        kinds.addAll(new java.util.TreeSet<>(runs.findDistinctKinds()));
        return kinds;
    }

    /** The testbeds the runs list can be filtered by: every one a stored run has, in name order. */
    public List<String> listedTestbeds() {
        return runs.findDistinctTestbeds();
    }

    private SpaceSpec spec(RunRequest request) {
        return validator.spec(request);
    }

    /** @throws RunNotFoundException if there is no such run */
    public Run get(long id) {
        return runs.findById(id).orElseThrow(() -> new RunNotFoundException(id));
    }

    public List<MetricResult> results(long id) {
        return results.findByRunIdOrderByPositionAsc(id);
    }

    /** The runs the filter lets through, newest first. */
    public Page<Run> list(RunFilter filter, int page, int size) {
        return runs.findAll(filter.specification(),
                PageRequest.of(page, size, Sort.by(Sort.Order.desc("createdAt"), Sort.Order.desc("id"))));
    }

    /** QUEUED and RUNNING runs, oldest first (the order the queue serves them). */
    public List<Run> active() {
        return runs.findByStatusInOrderByCreatedAtAscIdAsc(List.of(RunStatus.QUEUED, RunStatus.RUNNING));
    }

    /** The last {@code count} runs to finish, whatever their outcome, latest first. */
    public List<Run> latestFinished(int count) {
        return runs.findByFinishedAtNotNullOrderByFinishedAtDescIdDesc(PageRequest.of(0, count));
    }

    /**
     * A queued run is cancelled at once; a running one stops at its next iteration, keeps its
     * samples and ends CANCELLED.
     *
     * @throws RunNotFoundException if there is no such run
     * @throws RunStateException if the run has already finished
     */
    @Transactional
    public Run cancel(long id) {
        Run run = get(id);
        if (run.getStatus().finished()) {
            throw new RunStateException("run " + id + " has already finished (" + run.getStatus() + "); only QUEUED or RUNNING runs can be cancelled");
        }
        if (run.getStatus() == RunStatus.QUEUED && runs.cancelQueued(id, Instant.now()) == 1) {
            return get(id);
        }
        runs.requestCancel(id);
        return get(id);
    }
}
