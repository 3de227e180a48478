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
 */
public record RunRequest(SpaceSpec space, Plan plan, String testbed, List<String> channels) {

    /** A request measured through the agent alone. */
    public RunRequest(SpaceSpec space, Plan plan, String testbed) {
        this(space, plan, testbed, null);
    }

    /** A request for any testbed. */
    public RunRequest(SpaceSpec space, Plan plan) {
        this(space, plan, null);
    }
}
