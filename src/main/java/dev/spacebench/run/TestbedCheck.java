package dev.spacebench.run;

import dev.spacebench.request.FieldError;
import dev.spacebench.space.KindStatus;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whether some worker can take a run of a kind on a testbed, asked at submit. Owned here and
 * implemented by the fleet ({@code fleet.FleetChecks}), so that run does not import the fleet.
 */
public interface TestbedCheck {

    /** A testbed's name: 1 to 64 letters, digits, '.', '-' or '_'. */
    Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * @param testbed the testbed the run names, or null
     * @param kind a known kind
     * @param here what this app's own check of the kind found
     * @return the errors (field {@code testbed} or {@code space.kind}); empty when some worker can take the run
     */
    List<FieldError> check(String testbed, String kind, KindStatus here);
}
