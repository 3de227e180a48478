package dev.spacebench.run;

import dev.spacebench.database.DatabaseDisk;
import dev.spacebench.measure.Measurement;
import dev.spacebench.request.FieldError;
import dev.spacebench.environment.SystemFacts;
import dev.spacebench.plan.ConcurrencyFit;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.PlanValidator;
import dev.spacebench.plan.Plans;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.space.KindStatus;
import dev.spacebench.space.SpaceSettings;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Queues, finds and cancels runs. The worker does the measuring. */
@Service
public class RunService {

    private static final double MAX_CPUS = SpaceSpec.MAX_CPUS;
    private static final long MIN_MEMORY_MIB = SpaceSpec.MIN_MEMORY_MIB;
    private static final long MAX_MEMORY_MIB = SpaceSpec.MAX_MEMORY_MIB;

    private final RunRepository runs;
    private final MetricResultRepository results;
    private final Spaces spaces;
    private final QueueWaker worker;
    private final TestbedCheck fleet;
    private final PlanLimits limits;
    private final String defaultKind;
    private final DatabaseDisk disk;

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
        Plan plan = Plans.withDefaults(request == null ? null : request.plan());
        Run queued = new Run(spec.kind(), spec.forStorage(), plan, Measurement.progressUnits(plan), Instant.now());
        queued.setTestbed(request == null ? null : request.testbed());
        Run run = runs.save(queued);
        worker.wake();
        return run;
    }

    /**
     * Every problem of a request, without queueing it: strings and lists over their limits first
     * (then nothing else is checked), else the Space's fields and the plan's ranges.
     *
     * @return the errors in field order; empty when {@link #submit} would queue the request
     */
    public List<FieldError> check(RunRequest request) {
        SpaceSpec given = request == null || request.space() == null ? new SpaceSpec(null, null, null) : request.space();
        SpaceSpec spec = spec(request);
        boolean defaulted = given.kind() == null || given.kind().isBlank();
        List<FieldError> errors = new ArrayList<>(SpaceFields.check(given, spec.kind(), defaulted, spaces.creatingKinds(), spaces.attachingKinds()));
        if (!errors.isEmpty()) {
            return errors;
        }
        errors.addAll(checkSpace(spec, request == null ? null : request.testbed()));
        Plan plan = Plans.withDefaults(request == null ? null : request.plan());
        PlanValidator.check(plan, limits, "plan")
                .forEach(problem -> errors.add(new FieldError(problem.field(), problem.message())));
        if (errors.isEmpty()) {
            ConcurrencyFit.check(plan, !spaces.attachingKinds().contains(spec.kind()), spec.memoryMiB(), SystemFacts.read().memoryBytes(), "plan")
                    .forEach(problem -> errors.add(new FieldError(problem.field(), problem.message())));
        }
        return errors;
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
        SpaceSpec given = request == null || request.space() == null ? new SpaceSpec(null, null, null) : request.space();
        return given.kind() == null || given.kind().isBlank() ? given.withKind(kindForRequest()) : given;
    }

    private List<FieldError> checkSpace(SpaceSpec spec, String testbed) {
        List<FieldError> errors = new ArrayList<>();
        // A kind still being checked after the wait is queued: the worker waits for its check before making the Space.
        KindStatus availability = spaces.awaitKind(spec.kind());
        if (availability == null) {
            errors.add(new FieldError("space.kind", "must be one of " + spaces.kinds().keySet() + ", was '" + spec.kind() + "'"));
        } else {
            List<FieldError> unserved = fleet.check(testbed, spec.kind(), availability);
            if (unserved.isEmpty()) {
                spaces.check(spec).forEach((field, message) -> errors.add(new FieldError(field, message)));
            }
            errors.addAll(unserved);
        }
        if (spec.cpus() != null && (spec.cpus() <= 0 || spec.cpus() > MAX_CPUS || spec.cpus().isNaN())) {
            errors.add(new FieldError("space.cpus", "must be more than 0 and at most " + (int) MAX_CPUS + ", was " + spec.cpus()));
        }
        if (spec.memoryMiB() != null && (spec.memoryMiB() < MIN_MEMORY_MIB || spec.memoryMiB() > MAX_MEMORY_MIB)) {
            errors.add(new FieldError("space.memoryMiB", "must be from " + MIN_MEMORY_MIB + " to " + MAX_MEMORY_MIB
                    + ", was " + spec.memoryMiB()));
        }
        return errors;
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
