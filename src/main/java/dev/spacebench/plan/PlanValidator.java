package dev.spacebench.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks a complete plan (defaults already merged) against {@link PlanLimits}. */
public final class PlanValidator {

    private PlanValidator() {}

    /**
     * @param plan a plan after {@link Plans#withDefaults(Plan)}
     * @param prefix the JSON path of the plan in the request, e.g. {@code "plan"}
     * @return every problem found, in field order; empty when the plan is valid
     */
    public static List<PlanProblem> check(Plan plan, PlanLimits limits, String prefix) {
        List<PlanProblem> errors = new ArrayList<>();
        ExecPlan exec = plan.exec();
        String e = prefix + ".exec";
        Set<String> seen = new HashSet<>();
        // A list over its limit is named once, not entry by entry.
        int metricCount = exec.metrics().size();
        if (metricCount > PlanLimits.MAX_METRICS) {
            errors.add(new PlanProblem(e + ".metrics", "must have at most " + PlanLimits.MAX_METRICS + " entries (each of "
                    + ExecMetric.wireNames() + " once), had " + metricCount));
        }
        for (int i = 0; i < Math.min(metricCount, PlanLimits.MAX_METRICS); i++) {
            String name = exec.metrics().get(i);
            if (name == null || ExecMetric.fromWireName(name).isEmpty()) {
                errors.add(new PlanProblem(e + ".metrics[" + i + "]",
                        "must be one of " + ExecMetric.wireNames() + ", was " + Shown.quote(name)));
            } else if (!seen.add(name)) {
                errors.add(new PlanProblem(e + ".metrics[" + i + "]", Shown.quote(name) + " is listed twice"));
            }
        }
        range(errors, e + ".n", exec.n(), 1, PlanLimits.MAX_N);
        range(errors, e + ".warmups", exec.warmups(), 0, PlanLimits.MAX_WARMUPS);
        range(errors, e + ".agentWarmupCalls", exec.agentWarmupCalls(), 0, PlanLimits.MAX_AGENT_WARMUP_CALLS);

        FilePlan files = plan.files();
        String f = prefix + ".files";
        int sizeCount = files.sizes().size();
        if (sizeCount > PlanLimits.MAX_FILE_SIZES) {
            errors.add(new PlanProblem(f + ".sizes", "must have at most " + PlanLimits.MAX_FILE_SIZES + " entries, had " + sizeCount));
        }
        for (int i = 0; i < Math.min(sizeCount, PlanLimits.MAX_FILE_SIZES); i++) {
            FileSize size = files.sizes().get(i);
            String at = f + ".sizes[" + i + "]";
            if (size == null) {
                errors.add(new PlanProblem(at, "must be an object like {\"bytes\": 1048576, \"n\": 20}"));
                continue;
            }
            if (size.bytes() == null) {
                errors.add(new PlanProblem(at + ".bytes", "is required: the file size in bytes, from 1 to " + limits.maxFileBytes()));
            } else if (size.bytes() < 1 || size.bytes() > limits.maxFileBytes()) {
                errors.add(new PlanProblem(at + ".bytes", "must be from 1 to " + limits.maxFileBytes()
                        + " (the configured maximum, spacebench.plan.max-file-bytes), was " + size.bytes()));
            }
            if (size.n() == null) {
                errors.add(new PlanProblem(at + ".n", "is required: iterations at this size, from 1 to " + PlanLimits.MAX_N));
            } else {
                range(errors, at + ".n", size.n(), 1, PlanLimits.MAX_N);
            }
        }
        range(errors, f + ".warmups", files.warmups(), 0, PlanLimits.MAX_WARMUPS);
        if (files.bulkThresholdBytes() < 0) {
            errors.add(new PlanProblem(f + ".bulkThresholdBytes", "must be 0 (every size through the bulk lane) or more, was "
                    + files.bulkThresholdBytes()));
        }
        range(errors, f + ".chunkBytes", files.chunkBytes(), PlanLimits.MIN_CHUNK_BYTES, PlanLimits.MAX_CHUNK_BYTES);

        // Checked when given even if the floor is off: a value out of range is refused, not silently unused.
        if (plan.floor() != null) {
            range(errors, prefix + ".floor.n", plan.floor().n(), 1, PlanLimits.MAX_N);
            range(errors, prefix + ".floor.warmups", plan.floor().warmups(), 0, PlanLimits.MAX_WARMUPS);
        }
        if (plan.spaces() != null) {
            range(errors, prefix + ".spaces", plan.spaces(), 1, PlanLimits.MAX_SPACES);
        }
        checkOrder(errors, plan, prefix);
        if (plan.concurrency() != null) {
            checkConcurrency(errors, plan.concurrency(), limits, prefix + ".concurrency");
        }
        // Only a plan without errors is counted: a missing size or n has no count.
        long samples = errors.isEmpty() ? samples(plan) : 0;
        if (samples > PlanLimits.MAX_SAMPLES_PER_RUN) {
            errors.add(new PlanProblem(prefix, "would take " + samples + " samples and a run may take at most "
                    + PlanLimits.MAX_SAMPLES_PER_RUN + " (warm-ups, floor and Space samples included): lower exec.n, "
                    + "files.sizes[].n or floor.n, or measure fewer metrics"));
        }
        if (exec.metrics().isEmpty() && files.sizes().isEmpty() && plan.concurrency() == null) {
            errors.add(new PlanProblem(prefix, "has nothing to measure: give at least one of exec.metrics "
                    + ExecMetric.wireNames() + ", one files.sizes entry or a concurrency sweep"));
        }
        return errors;
    }

    /**
     * {@code order} is one of {@link Plan#ORDERS}; {@code blockSize} 1 to exec n; an interleaved
     * floor needs at least one iteration per block ({@code measure.BlockSchedule} gives every series
     * ⌈exec n / blockSize⌉ blocks). A stored plan's null order (sequential) is not checked here.
     */
    private static void checkOrder(List<PlanProblem> errors, Plan plan, String prefix) {
        if (plan.order() != null && !Plan.ORDERS.contains(plan.order())) {
            errors.add(new PlanProblem(prefix + ".order", "must be one of " + Plan.ORDERS + ", was " + Shown.quote(plan.order())));
            return;
        }
        int n = plan.exec().n();
        // An exec n out of range is named there; a block size against it would say nothing more.
        if (!plan.interleaved() || plan.blockSize() == null || n < 1 || n > PlanLimits.MAX_N) {
            return;
        }
        if (plan.blockSize() < 1 || plan.blockSize() > Math.max(1, n)) {
            errors.add(new PlanProblem(prefix + ".blockSize", "must be from 1 to " + n + " (exec.n), was " + plan.blockSize()));
            return;
        }
        int blocks = (n + plan.blockSize() - 1) / plan.blockSize();
        FloorPlan floor = plan.floor();
        if (floor != null && floor.enabled() && floor.n() >= 1 && floor.n() < blocks) {
            errors.add(new PlanProblem(prefix + ".blockSize", "must give at most floor.n (" + floor.n() + ") blocks: exec.n " + n
                    + " in blocks of " + plan.blockSize() + " is " + blocks + " blocks, and every floor loop is cut into as many;"
                    + " raise blockSize to at least " + ((n + floor.n() - 1) / floor.n()) + " or floor.n to " + blocks));
        }
    }

    private static void checkConcurrency(List<PlanProblem> errors, ConcurrencyPlan sweep, PlanLimits limits, String c) {
        int levelCount = sweep.levels().size();
        if (levelCount == 0) {
            errors.add(new PlanProblem(c + ".levels", "must have at least one level (Spaces busy at once), e.g. [1, 2, 4, 8]"));
        } else if (levelCount > PlanLimits.MAX_LEVELS) {
            errors.add(new PlanProblem(c + ".levels", "must have at most " + PlanLimits.MAX_LEVELS + " entries, had " + levelCount));
        }
        Integer previous = null;
        for (int i = 0; i < Math.min(levelCount, PlanLimits.MAX_LEVELS); i++) {
            Integer level = sweep.levels().get(i);
            String at = c + ".levels[" + i + "]";
            if (level == null) {
                errors.add(new PlanProblem(at, "must be a whole number from 1 to " + limits.maxConcurrency()));
                continue;
            }
            if (level < 1 || level > limits.maxConcurrency()) {
                errors.add(new PlanProblem(at, "must be from 1 to " + limits.maxConcurrency()
                        + " (the configured maximum, spacebench.plan.max-concurrency), was " + level));
            } else if (previous != null && level <= previous) {
                errors.add(new PlanProblem(at, "must be more than the level before it (levels ascend, each once), was "
                        + level + " after " + previous));
            }
            previous = level;
        }
        int metricCount = sweep.metrics().size();
        if (metricCount > PlanLimits.MAX_METRICS) {
            errors.add(new PlanProblem(c + ".metrics", "must have at most " + PlanLimits.MAX_METRICS + " entries (each of "
                    + ExecMetric.wireNames() + " once), had " + metricCount));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < Math.min(metricCount, PlanLimits.MAX_METRICS); i++) {
            String name = sweep.metrics().get(i);
            if (name == null || ExecMetric.fromWireName(name).isEmpty()) {
                errors.add(new PlanProblem(c + ".metrics[" + i + "]",
                        "must be one of " + ExecMetric.wireNames() + ", was " + Shown.quote(name)));
            } else if (!seen.add(name)) {
                errors.add(new PlanProblem(c + ".metrics[" + i + "]", Shown.quote(name) + " is listed twice"));
            }
        }
        range(errors, c + ".n", sweep.n(), 1, PlanLimits.MAX_N);
        if (sweep.fileBytes() != null) {
            if (sweep.fileBytes() < 1 || sweep.fileBytes() > limits.maxFileBytes()) {
                errors.add(new PlanProblem(c + ".fileBytes", "must be from 1 to " + limits.maxFileBytes()
                        + " (the configured maximum, spacebench.plan.max-file-bytes), was " + sweep.fileBytes()));
            }
            range(errors, c + ".fileN", sweep.fileN(), 1, PlanLimits.MAX_N);
        } else if (metricCount == 0) {
            errors.add(new PlanProblem(c, "has nothing to measure: give at least one of metrics " + ExecMetric.wireNames()
                    + " or a fileBytes"));
        }
    }

    /**
     * Samples a valid plan takes: each exec metric's warm-ups and n, an upload and a download per
     * file iteration, the floor's five loops (timer once, four loops of warm-ups and n), and each
     * Space's ready and delete times; a sweep adds, per level of L Spaces, L × (its metrics × (n
     * + exec warm-ups) + 2 × fileN (+ file warm-ups) + ready and delete).
     */
    public static long samples(Plan plan) {
        long exec = (long) plan.exec().metrics().size() * (plan.exec().n() + plan.exec().warmups());
        long files = 2 * plan.files().sizes().stream().mapToLong(s -> (long) s.n() + plan.files().warmups()).sum();
        FloorPlan floor = plan.floor();
        long floorSamples = floor == null || !floor.enabled() ? 0 : 1 + 4L * (floor.n() + floor.warmups());
        return exec + files + floorSamples + 2L * plan.spaceCount() + sweepSamples(plan);
    }

    private static long sweepSamples(Plan plan) {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return 0;
        }
        long perSpace = (long) sweep.metrics().size() * (sweep.n() + plan.exec().warmups()) + 2
                + (sweep.fileBytes() == null ? 0 : 2L * (sweep.fileN() + plan.files().warmups()));
        return sweep.levels().stream().filter(java.util.Objects::nonNull).mapToLong(l -> l * perSpace).sum();
    }

    private static void range(List<PlanProblem> errors, String field, long value, long min, long max) {
        if (value < min || value > max) {
            errors.add(new PlanProblem(field, "must be from " + min + " to " + max + ", was " + value));
        }
    }
}
