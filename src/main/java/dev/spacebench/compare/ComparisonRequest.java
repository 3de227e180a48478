package dev.spacebench.compare;

import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import java.util.Arrays;
import java.util.List;

/**
 * Reads {@code runs=A,B}, {@code run=A&baseline=NAME} or, for a comparison run, {@code run=A} (its first entry
 * against its second) or {@code run=A&entry=N} (against its N-th) into two sides.
 */
final class ComparisonRequest {

    private ComparisonRequest() {}

    /**
     * @throws InvalidRequestException naming the parameter when the query is not one of the two
     *     shapes (both shapes at once included: nothing given is silently ignored)
     * @throws dev.spacebench.run.RunNotFoundException naming {@code runs} or {@code run}
     */
    static Comparison resolve(String runsParam, Long run, String baseline, Sides sides) {
        return resolve(runsParam, run, baseline, null, sides);
    }

    /** As {@link #resolve(String, Long, String, Sides)}, with {@code entry} for a comparison run's entries. */
    static Comparison resolve(String runsParam, Long run, String baseline, Integer entry, Sides sides) {
        if (entry != null && (run == null || runsParam != null || baseline != null)) {
            throw invalid("entry", "is only for a comparison run on its own: run=ID&entry=N compares its first entry with its N-th");
        }
        if (runsParam != null && !runsParam.isBlank()) {
            List<FieldError> extra = new java.util.ArrayList<>();
            String why = "must not be given with runs: compare two runs (runs=A,B) or a run with a baseline (run=ID&baseline=NAME)";
            if (run != null) {
                extra.add(new FieldError("run", why));
            }
            if (baseline != null) {
                extra.add(new FieldError("baseline", why));
            }
            if (!extra.isEmpty()) {
                throw new InvalidRequestException(extra);
            }
            List<String> ids = Arrays.stream(runsParam.split(",", -1)).map(String::trim).toList();
            if (ids.size() != 2) {
                throw invalid("runs", "must be two run ids separated by a comma, e.g. runs=3,7; was " + dev.spacebench.plan.Shown.quote(runsParam));
            }
            return Comparer.compare(run(sides, parse(ids.get(0)), "runs"), run(sides, parse(ids.get(1)), "runs"));
        }
        if (run != null && baseline != null && !baseline.isBlank()) {
            return Comparer.compare(sides.baseline(baseline, "baseline"), run(sides, run, "run"));
        }
        if (run != null) {
            dev.spacebench.run.Run stored = null;
            try {
                stored = sides.stored(run);
            } catch (dev.spacebench.run.RunNotFoundException e) {
                // No such run: the query's shape is what is wrong, as for any run=ID without a baseline.
            }
            if (stored != null && stored.isComparison()) {
                int entries = stored.getCompareEntries().size();
                int other = entry == null ? 2 : entry;
                if (other < 2 || other > entries) {
                    throw invalid("entry", "must be from 2 to " + entries + " (run " + run + "'s entries after the first), was " + other);
                }
                return Comparer.compare(sides.entry(run, 1), sides.entry(run, other));
            }
            throw invalid("baseline", "is required with run=ID: the baseline to compare the run with, e.g. run=7&baseline=laptop"
                    + " (run=ID alone compares the entries of a comparison run)");
        }
        if (baseline != null && !baseline.isBlank()) {
            throw invalid("run", "is required with baseline=NAME: the run to compare with the baseline, e.g. run=7&baseline=laptop");
        }
        throw invalid("runs", "give runs=A,B to compare two runs, or run=ID&baseline=NAME to compare a run with a baseline");
    }

    private static Side run(Sides sides, long id, String field) {
        try {
            return sides.run(id);
        } catch (dev.spacebench.run.RunNotFoundException e) {
            throw new dev.spacebench.run.RunNotFoundException(id, field);
        }
    }

    private static long parse(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw invalid("runs", "must be run ids (numbers), was " + dev.spacebench.plan.Shown.quote(id));
        }
    }

    private static InvalidRequestException invalid(String field, String message) {
        return new InvalidRequestException(List.of(new FieldError(field, message)));
    }
}
