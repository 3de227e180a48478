package dev.spacebench.run;

import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceSpec;

/**
 * The body of {@code POST /api/runs}. Both parts are optional: no space means the default kind,
 * and any part of the plan left out takes the published default.
 *
 * <pre>{"space": {"kind": "process"}, "plan": {"exec": {"n": 300, "warmups": 5}, "files": {"sizes": [{"bytes": 1048576, "n": 20}]}}}</pre>
 */
public record RunRequest(SpaceSpec space, Plan plan) {
}
