package dev.spacebench.request;

import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.Shown;
import dev.spacebench.space.SpaceSpec;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * A request body Jackson could not read, as the one field error the REST API answers and
 * {@code bench --plan FILE} prints: the field's JSON path, what it must be (with the allowed range
 * where the field has one) and what it was. Never Jackson's own text, which names Java types.
 */
public final class RequestBodyErrors {

    private RequestBodyErrors() {}

    /**
     * @param e what Jackson threw
     * @param prefix the path of the document read within a run request: {@code ""} for a whole
     *     request body, {@code "plan"} for a plan file
     * @param limits the plan's limits, for the ranges of its numeric fields
     */
    public static FieldError describe(JacksonException e, String prefix, PlanLimits limits) {
        if (e instanceof StreamConstraintsException limit) {
            // A number of thousands of digits, a string of millions of characters: Jackson gives no path, the parser knows where.
            String field = join(prefix, parserPath(limit));
            boolean number = String.valueOf(limit.getOriginalMessage()).startsWith("Number value length");
            return new FieldError(field.isEmpty() ? "body" : field, number
                    ? "must be a number of at most " + tools.jackson.core.StreamReadConstraints.defaults().getMaxNumberLength() + " digits"
                    : "is too long to read: " + String.valueOf(limit.getOriginalMessage()).split(" \\(", 2)[0]);
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            return new FieldError(path(prefix, unknown), "is not a known field; known here: " + names(unknown.getKnownPropertyIds()));
        }
        if (e instanceof InputCoercionException coercion) {
            // A number too large for its field: Jackson gives no path, the parser still knows where it was.
            String field = join(prefix, parserPath(coercion));
            return new FieldError(field, "must be " + allowed(field, limits, coercion.getTargetType()).orElse("a smaller number")
                    + ", was " + Shown.quote(text(coercion)));
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getPath().isEmpty() && prefix.isEmpty()) {
            return new FieldError("body", "must be a JSON object, e.g. {\"space\": {\"kind\": \"process\"}}");
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            String field = path(prefix, mismatch);
            String was = mismatch instanceof InvalidFormatException invalid ? ", was " + Shown.quote(invalid.getValue()) : "";
            return new FieldError(field.isEmpty() ? "body" : field,
                    "must be " + allowed(field, limits, mismatch.getTargetType()).orElse(typeName(mismatch.getTargetType())) + was);
        }
        if (e instanceof DatabindException db && !db.getPath().isEmpty()) {
            return new FieldError(path(prefix, db), String.valueOf(db.getOriginalMessage()));
        }
        // Jackson's own text names its internals ("start marker at [Source: …]"); keep the first clause.
        String reason = String.valueOf(e.getOriginalMessage()).split(" \\(|\n|:", 2)[0];
        return new FieldError("body", "is not valid JSON: " + reason
                + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()));
    }

    /** As {@link #describe(JacksonException, String, PlanLimits)} for a document outside a run request (no plan limits). */
    public static FieldError describe(JacksonException e, String prefix) {
        return describe(e, prefix, null);
    }

    /** What a field allows, from the plan's and the Space's limits; empty for other fields. */
    static Optional<String> allowed(String field, PlanLimits limits, Class<?> type) {
        if (field.startsWith("plan.") && limits != null) {
            return limits.allowed(field.substring("plan.".length()));
        }
        return switch (field) {
            case "space.cpus" -> Optional.of("a number more than 0 and at most " + (int) SpaceSpec.MAX_CPUS);
            case "space.memoryMiB" -> Optional.of("a whole number from " + SpaceSpec.MIN_MEMORY_MIB + " to " + SpaceSpec.MAX_MEMORY_MIB);
            default -> Optional.empty();
        };
    }

    /** How an expected Java type reads in an error message. */
    public static String typeName(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a JSON array";
        }
        return "a JSON object";
    }

    private static String path(String prefix, DatabindException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getPropertyName() != null ? "." + ref.getPropertyName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
        return join(prefix, path);
    }

    private static String parserPath(JacksonException e) {
        if (!(e.processor() instanceof JsonParser parser)) {
            return "";
        }
        Deque<String> parts = new ArrayDeque<>();
        for (TokenStreamContext context = parser.streamReadContext(); context != null && !context.inRoot(); context = context.getParent()) {
            parts.addFirst(context.inArray() ? "[" + context.getCurrentIndex() + "]" : "." + context.currentName());
        }
        return String.join("", parts).replaceFirst("^\\.", "");
    }

    // Jackson's text carries the number: "Numeric value (100000000000000000000) out of range of `int` …".
    private static String text(InputCoercionException e) {
        java.util.regex.Matcher number = java.util.regex.Pattern.compile("\\(([-+.\\deE]+)\\)").matcher(String.valueOf(e.getOriginalMessage()));
        return number.find() ? number.group(1) : "a number out of range";
    }

    private static String join(String prefix, String path) {
        if (prefix.isEmpty()) {
            return path;
        }
        return path.isEmpty() ? prefix : path.startsWith("[") ? prefix + path : prefix + "." + path;
    }

    private static String names(Collection<Object> known) {
        return known == null ? "[]" : known.stream().map(String::valueOf).sorted().toList().toString();
    }
}
