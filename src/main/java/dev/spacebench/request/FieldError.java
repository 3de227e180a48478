package dev.spacebench.request;

/**
 * One rejected field of a request.
 *
 * @param field the JSON path of the field, e.g. {@code plan.files.sizes[2].bytes}
 * @param message what is wrong and what is allowed, e.g. "must be from 1 to 1000000, was 0"
 */
public record FieldError(String field, String message) {
}
