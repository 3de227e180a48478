package dev.spacebench.plan;

/**
 * What a run measures. Any part left out of a request takes its default from
 * {@link Plans#withDefaults(Plan)}; a complete plan is what gets stored and published.
 *
 * @param exec exec round trips
 * @param files file transfers
 * @param floor the bare floor measured in the same run (null in runs stored before it existed)
 */
public record Plan(ExecPlan exec, FilePlan files, FloorPlan floor) {

    /** A plan without a floor part: it takes the defaults. */
    public Plan(ExecPlan exec, FilePlan files) {
        this(exec, files, null);
    }
}
