package dev.spacebench.cli;

import dev.spacebench.request.FieldError;
import java.util.List;
import java.util.stream.Collectors;

/** A refused request's errors as the command prints them: one line per field. */
final class RequestErrors {

    private RequestErrors() {}

    /** e.g. "the run was refused:\n  plan.exec.n: must be from 1 to 1000000, was 0" */
    static String describe(List<FieldError> errors) {
        return "the run was refused:\n" + lines(errors);
    }

    /** One indented line per error: "  field: message". */
    static String lines(List<FieldError> errors) {
        return errors.stream().map(e -> "  " + e.field() + ": " + e.message()).collect(Collectors.joining("\n"));
    }
}
