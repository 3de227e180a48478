package dev.spacebench.plan;

/**
 * What a run measures. Any part left out of a request takes its default from
 * {@link Plans#withDefaults(Plan)}; a complete plan is what gets stored and published.
 *
 * @param exec exec round trips
 * @param files file transfers
 * @param floor the bare floor measured in the same run (null in runs stored before it existed)
 * @param spaces how many Spaces the run creates in turn, each timed from create to its first Ping
 *     and deleted again; only the last one runs the loops. More than 1 gives {@code space.ready}
 *     and {@code space.delete} more than one sample (null: 1)
 * @param concurrency the concurrency sweep, run after the single-Space loops; null: none
 */
public record Plan(ExecPlan exec, FilePlan files, FloorPlan floor, Integer spaces, ConcurrencyPlan concurrency) {

    /** A plan without a sweep. */
    public Plan(ExecPlan exec, FilePlan files, FloorPlan floor, Integer spaces) {
        this(exec, files, floor, spaces, null);
    }

    /** A plan without a floor part: it takes the defaults. */
    public Plan(ExecPlan exec, FilePlan files) {
        this(exec, files, null, null, null);
    }

    public Plan(ExecPlan exec, FilePlan files, FloorPlan floor) {
        this(exec, files, floor, null, null);
    }

    /** Spaces created in turn, at least 1. */
    public int spaceCount() {
        return spaces == null ? 1 : spaces;
    }
}
