package dev.spacebench.run;

import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;
import java.util.List;

/**
 * The body of {@code POST /api/runs}. Every part is optional: no space means the default kind,
 * any part of the plan left out takes the published default, and no testbed means any live worker
 * that can make the kind.
 *
 * <pre>{"space": {"kind": "process"}, "plan": {"exec": {"n": 300, "warmups": 5}, "files": {"sizes": [{"bytes": 1048576, "n": 20}]}},
 *  "testbed": "arm-box", "channels": ["agent", "ssh"]}</pre>
 *
 * {@code channels}: what the Space is measured through, in order, each on the same Space; none means {@code ["agent"]}.
 *
 * <p>{@code compare} (issue 29), instead of {@code space} and {@code channels}: 2 to 4 Spaces measured in one run, their
 * blocks interleaved, each read against the first ({@link CompareEntry}; checked by {@code validation.CompareEntries}):
 *
 * <pre>{"compare": [{"label": "A", "space": {"kind": "process"}}, {"label": "B", "space": {"kind": "sandbox"}}],
 *  "plan": {"exec": {"n": 300}}}</pre>
 */
public record RunRequest(SpaceSpec space, Plan plan, String testbed, List<String> channels, List<CompareEntry> compare) {

    /** A request for one Space. */
    public RunRequest(SpaceSpec space, Plan plan, String testbed, List<String> channels) {
        this(space, plan, testbed, channels, null);
    }

    /** A comparison run of {@code compare}'s Spaces. */
    public static RunRequest comparing(List<CompareEntry> compare, Plan plan, String testbed) {
        return new RunRequest(null, plan, testbed, null, compare);
    }

    /** A request measured through the agent alone. */
    public RunRequest(SpaceSpec space, Plan plan, String testbed) {
        this(space, plan, testbed, null);
    }

    /** A request for any testbed. */
    public RunRequest(SpaceSpec space, Plan plan) {
        this(space, plan, null);
    }
}
