package dev.spacebench.run.validation;

import dev.spacebench.environment.SystemFacts;
import dev.spacebench.plan.ConcurrencyFit;
import dev.spacebench.plan.Plan;
import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.PlanValidator;
import dev.spacebench.plan.Plans;
import dev.spacebench.request.FieldError;
import dev.spacebench.run.CompareEntry;
import dev.spacebench.run.RunRequest;
import dev.spacebench.run.TestbedCheck;
import dev.spacebench.space.KindStatus;
import dev.spacebench.space.SpaceChannels;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place a run request is checked, and the order its checks run in: (1) the {@code space}
 * strings over their limits and the fields that do not apply to the kind ({@link SpaceFields}; any
 * error here ends the check), (2) the kind: known, served by the testbed asked for
 * ({@link TestbedCheck}, the fleet's), then what its provider can see before creating anything, (3) the shape's
 * ranges, (4) the plan's ranges after its defaults ({@link PlanValidator}), and only when all
 * those passed, (5) whether a sweep fits the kind and the host ({@link ConcurrencyFit}). The body's
 * JSON shape (unknown fields, wrong types) is refused before this, by the request's reader.
 */
public final class RunRequestValidator {

    public static final double MAX_CPUS = SpaceSpec.MAX_CPUS;
    public static final long MIN_MEMORY_MIB = SpaceSpec.MIN_MEMORY_MIB;
    public static final long MAX_MEMORY_MIB = SpaceSpec.MAX_MEMORY_MIB;

    /** The kind a request that names none gets (it may wait a little for sandbox's check). */
    public interface DefaultKind {
        String forRequest();
    }

    private final Spaces spaces;
    private final TestbedCheck fleet;
    private final PlanLimits limits;
    private final DefaultKind defaultKind;

    public RunRequestValidator(Spaces spaces, TestbedCheck fleet, PlanLimits limits, DefaultKind defaultKind) {
        this.spaces = spaces;
        this.fleet = fleet;
        this.limits = limits;
        this.defaultKind = defaultKind;
    }

    /** The request's Space, with the default kind when it named none. */
    public SpaceSpec spec(RunRequest request) {
        if (request != null && request.compare() != null && !request.compare().isEmpty()) {
            CompareEntry first = request.compare().get(0);
            return spec(first.space(), first.channels());
        }
        return spec(given(request), request == null ? null : request.channels());
    }

    /** A comparison's entries, each with its Space's default kind filled in and its channels in its spec (for storage: sealed). */
    public List<CompareEntry> entries(RunRequest request) {
        if (request == null || request.compare() == null) {
            return null;
        }
        return request.compare().stream().map(e -> new CompareEntry(e.label(), spec(e.space(), e.channels()).forStorage())).toList();
    }

    /**
     * Every problem of a request, in the order above.
     *
     * @return the errors in field order; empty when the request may be queued
     */
    public List<FieldError> check(RunRequest request) {
        if (request != null && request.compare() != null) {
            return CompareEntries.check(request, this);
        }
        return check(given(request), request == null ? null : request.channels(), request == null ? null : request.testbed(),
                request == null ? null : request.plan(), "");
    }

    /**
     * One Space's checks, then the plan's, as {@link #check(RunRequest)} makes them; each Space field
     * named under {@code prefix} (a comparison's entry, {@code "compare[2]."}), the plan's as they are.
     */
    List<FieldError> check(SpaceSpec given, List<String> channels, String testbed, Plan requested, String prefix) {
        SpaceSpec spec = spec(given, channels);
        List<FieldError> errors = new ArrayList<>(fieldErrors(given, channels, prefix));
        if (!errors.isEmpty()) {
            return errors;
        }
        errors.addAll(prefixed(checkSpace(spec, testbed), prefix));
        if (errors.isEmpty()) {
            errors.addAll(CommandKindPlan.check(spec, requested, spaces));
        }
        Plan plan = Plans.withDefaults(requested);
        PlanValidator.check(plan, limits, "plan")
                .forEach(problem -> errors.add(new FieldError(problem.field(), problem.message())));
        if (errors.isEmpty() && plan.interleaved() && !Boolean.FALSE.equals(plan.floor().enabled()) && spec.channels() != null
                && !spec.channels().contains(SpaceChannels.AGENT)) {
            // The floor's blocks are interleaved with the agent channel's loops; without that channel they would never run.
            errors.add(new FieldError(prefix + "channels", "an interleaved run with a floor measures its floor beside the agent channel: add \""
                    + SpaceChannels.AGENT + "\" to channels, or set plan.floor.enabled to false or plan.order to \"" + Plan.SEQUENTIAL
                    + "\", was " + spec.channels()));
        }
        if (errors.isEmpty()) {
            ConcurrencyFit.check(plan, !spaces.attachingKinds().contains(spec.kind()), spec.memoryMiB(), SystemFacts.read().memoryBytes(),
                    "plan").forEach(problem -> errors.add(new FieldError(problem.field(), problem.message())));
        }
        return errors;
    }

    /** The Space's own checks (1) and (2): its strings and fields, its channels, its kind; fields named under {@code prefix}. */
    List<FieldError> checkSpaceOnly(SpaceSpec given, List<String> channels, String testbed, String prefix) {
        List<FieldError> errors = fieldErrors(given, channels, prefix);
        return errors.isEmpty() ? prefixed(checkSpace(spec(given, channels), testbed), prefix) : errors;
    }

    /** (1): the Space's strings over their limits, fields that do not apply to its kind, and its channels. */
    private List<FieldError> fieldErrors(SpaceSpec given, List<String> channels, String prefix) {
        SpaceSpec space = given == null ? new SpaceSpec(null, null, null) : given;
        SpaceSpec spec = spec(space, channels);
        boolean defaulted = space.kind() == null || space.kind().isBlank();
        List<FieldError> errors = new ArrayList<>(SpaceFields.check(space, spec.kind(), defaulted, spaces.creatingKinds(),
                spaces.attachingKinds()));
        errors.addAll(RequestChannels.check(space, channels));
        return prefixed(errors, prefix);
    }

    private static List<FieldError> prefixed(List<FieldError> errors, String prefix) {
        return prefix.isEmpty() ? errors : errors.stream().map(e -> new FieldError(prefix + e.field(), e.message())).toList();
    }

    /** {@code given} (an empty spec when null) with the default kind when it named none, and {@code channels}. */
    SpaceSpec spec(SpaceSpec given, List<String> channels) {
        SpaceSpec space = given == null ? new SpaceSpec(null, null, null) : given;
        SpaceSpec kinded = space.kind() == null || space.kind().isBlank() ? space.withKind(defaultKind.forRequest()) : space;
        return kinded.withChannels(channels);
    }

    private static SpaceSpec given(RunRequest request) {
        return request == null || request.space() == null ? new SpaceSpec(null, null, null) : request.space();
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
}
