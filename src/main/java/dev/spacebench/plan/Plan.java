package dev.spacebench.plan;

/**
 * What a run measures. Any part left out of a request takes its default from
 * {@link Plans#withDefaults(Plan)}; a complete plan is what gets stored and published.
 *
 * @param exec exec round trips
 * @param files file transfers
 */
public record Plan(ExecPlan exec, FilePlan files) {
}
