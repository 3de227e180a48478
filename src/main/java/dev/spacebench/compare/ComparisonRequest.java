package dev.spacebench.compare;

import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import java.util.Arrays;
import java.util.List;

/** Reads {@code runs=A,B} or {@code run=A&baseline=NAME} into two sides. */
final class ComparisonRequest {

    private ComparisonRequest() {}

    /** @throws InvalidRequestException naming the parameter when the query is not one of the two shapes */
    static Comparison resolve(String runsParam, Long run, String baseline, Sides sides) {
        if (runsParam != null && !runsParam.isBlank()) {
            List<String> ids = Arrays.stream(runsParam.split(",")).map(String::trim).toList();
            if (ids.size() != 2) {
                throw invalid("runs", "must be two run ids separated by a comma, e.g. runs=3,7; was " + dev.spacebench.plan.Shown.quote(runsParam));
            }
            return Comparer.compare(sides.run(parse(ids.get(0))), sides.run(parse(ids.get(1))));
        }
        if (run != null && baseline != null && !baseline.isBlank()) {
            return Comparer.compare(sides.baseline(baseline, "baseline"), sides.run(run));
        }
        throw invalid("runs", "give runs=A,B to compare two runs, or run=ID&baseline=NAME to compare a run with a baseline");
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
