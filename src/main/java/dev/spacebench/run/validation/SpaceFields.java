package dev.spacebench.run.validation;

import dev.spacebench.request.FieldError;
import dev.spacebench.space.SpaceKinds;
import dev.spacebench.space.SpaceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The limits of a request's {@code space} strings, and which fields apply to which kinds: a field
 * a kind would ignore is refused rather than silently dropped.
 */
final class SpaceFields {

    /** As long as the run table's kind column. */
    static final int MAX_KIND = 32;
    /** {@code tcp:HOST:PORT} or {@code unix:/path} (a socket path has at most 107 bytes). */
    static final int MAX_TARGET = 512;
    static final int MAX_TOKEN = 1024;
    /** Linux's PATH_MAX. */
    static final int MAX_BULK_DIR = 4096;
    static final int MAX_RUNTIME = 64;

    private SpaceFields() {}

    /**
     * @param kind the kind the run will get (the default when the request named none)
     * @param defaulted true when the request named no kind
     * @param creating the known kinds that create Spaces: only they take cpus and memoryMiB
     * @param attaching the known kinds that reach an agent the app did not start: only they take
     *     target, token and bulkDir
     * @return each string over its limit, then each field that does not apply to the kind; empty when none
     */
    static List<FieldError> check(SpaceSpec spec, String kind, boolean defaulted, List<String> creating, List<String> attaching) {
        List<FieldError> errors = new ArrayList<>();
        length(errors, "space.kind", spec.kind(), MAX_KIND);
        length(errors, "space.target", spec.target(), MAX_TARGET);
        length(errors, "space.token", spec.token(), MAX_TOKEN);
        length(errors, "space.bulkDir", spec.bulkDir(), MAX_BULK_DIR);
        length(errors, "space.runtime", spec.runtime(), MAX_RUNTIME);
        if (!errors.isEmpty() || kind == null || !creating.contains(kind) && !attaching.contains(kind)) {
            return errors;
        }
        String which = "kind '" + kind + "'" + (defaulted ? " (the default)" : "");
        if (attaching.contains(kind)) {
            notFor(errors, "space.cpus", spec.cpus(), which + ": an attached agent runs where it was started", creating);
            notFor(errors, "space.memoryMiB", spec.memoryMiB(), which + ": an attached agent runs where it was started", creating);
        } else {
            notFor(errors, "space.target", spec.target(), which, attaching);
            notFor(errors, "space.token", spec.token(), which, attaching);
            notFor(errors, "space.bulkDir", spec.bulkDir(), which, attaching);
        }
        if (!SpaceKinds.CONTAINER.equals(kind)) {
            // The OCI runtime is the container engine's choice; no other kind has one to choose.
            notFor(errors, "space.runtime", spec.runtime(), which, List.of(SpaceKinds.CONTAINER));
        } else if (spec.runtime() != null && !SpaceKinds.CONTAINER_RUNTIMES.contains(spec.runtime())) {
            // Known here, before the kind's availability: whether runsc runs on this host is the kind's to say.
            errors.add(new FieldError("space.runtime", "must be one of " + SpaceKinds.CONTAINER_RUNTIMES + " (default "
                    + SpaceKinds.CONTAINER_RUNTIMES.get(0) + "), was '" + spec.runtime() + "'"));
        }
        return errors;
    }

    private static void length(List<FieldError> errors, String field, String value, int max) {
        if (value != null && value.length() > max) {
            errors.add(new FieldError(field, "must be at most " + max + " characters, was " + value.length()));
        }
    }

    private static void notFor(List<FieldError> errors, String field, Object value, String which, List<String> kinds) {
        if (value != null) {
            errors.add(new FieldError(field, "does not apply to " + which + "; it applies to " + kinds));
        }
    }
}
