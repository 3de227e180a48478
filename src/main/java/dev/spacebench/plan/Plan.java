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
 * @param order {@value #SEQUENTIAL}: each series' loop in turn, as runs stored before this field
 *     were measured (null reads so); {@value #INTERLEAVED} (the default for new runs): the exec
 *     metrics and the floor loops in blocks, in a seeded random order each round ({@code measure.BlockSchedule})
 * @param blockSize measured iterations per block of an exec metric (an interleaved plan); the exec n
 *     over this, rounded up, is the number of blocks every series gets
 * @param seed what the block order is drawn from (the same seed gives the same order); drawn when
 *     the run is submitted without one, and stored
 */
public record Plan(ExecPlan exec, FilePlan files, FloorPlan floor, Integer spaces, ConcurrencyPlan concurrency,
                   String order, Integer blockSize, Long seed) {

    public static final String SEQUENTIAL = "sequential";
    public static final String INTERLEAVED = "interleaved";
    public static final java.util.List<String> ORDERS = java.util.List.of(SEQUENTIAL, INTERLEAVED);

    /** A plan in the order of runs stored before {@code order} existed. */
    public Plan(ExecPlan exec, FilePlan files, FloorPlan floor, Integer spaces, ConcurrencyPlan concurrency) {
        this(exec, files, floor, spaces, concurrency, null, null, null);
    }

    /** Whether the loops run in blocks ({@link #INTERLEAVED}); null (a stored plan from before) is sequential. */
    public boolean interleaved() {
        return INTERLEAVED.equals(order);
    }

    /** This plan with {@code seed} when it has none. */
    public Plan withSeedIfNone(long seed) {
        return this.seed != null ? this : new Plan(exec, files, floor, spaces, concurrency, order, blockSize, seed);
    }

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
