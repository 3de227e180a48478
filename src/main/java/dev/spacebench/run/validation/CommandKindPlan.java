package dev.spacebench.run.validation;

import dev.spacebench.plan.Plan;
import dev.spacebench.request.FieldError;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.util.ArrayList;
import java.util.List;

/**
 * What a request may ask of a Space that cannot do all a plan holds: files asked for (the request's
 * own {@code plan.files.sizes}, not the defaults) from a Space that cannot move them, and a sweep
 * of the command kind (a target's Spaces are made one at a time by its commands). The defaults'
 * file metrics are skipped with the reason instead, on the page.
 */
final class CommandKindPlan {

    private CommandKindPlan() {}

    /** @param asked the request's plan as given, before defaults; may be null */
    static List<FieldError> check(SpaceSpec spec, Plan asked, Spaces spaces) {
        List<FieldError> errors = new ArrayList<>();
        boolean filesAsked = asked != null && asked.files() != null && asked.files().sizes() != null && !asked.files().sizes().isEmpty();
        if (filesAsked) {
            spaces.filesUnsupported(spec).ifPresent(why -> errors.add(new FieldError("plan.files.sizes", why
                    + "; give no sizes (\"sizes\": []), or leave plan.files out and its file metrics are skipped with this reason")));
        }
        if (asked != null && asked.concurrency() != null && SpaceKinds.reachedByCommands(spec.kind())) {
            errors.add(new FieldError("plan.concurrency", "cannot sweep the command kind: a target's Spaces are made by its "
                    + "commands, one run at a time; leave plan.concurrency out"));
        }
        return errors;
    }
}
