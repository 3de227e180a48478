package dev.spacebench.request;

import java.util.List;
import java.util.stream.Collectors;

/** A request that names fields outside their allowed ranges; REST answers 400 problem+json. */
public class InvalidRequestException extends RuntimeException {

    private final List<FieldError> errors;

    public InvalidRequestException(List<FieldError> errors) {
        super(errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
