package dev.spacebench.system;

import dev.spacebench.baseline.BaselineNotFoundException;
import dev.spacebench.plan.FieldError;
import dev.spacebench.plan.InvalidRequestException;
import dev.spacebench.run.RunNotFoundException;
import dev.spacebench.run.RunStateException;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * RFC 9457 problem+json for every REST error. Bad input names its fields in an {@code errors}
 * array: {@code [{"field": "plan.exec.n", "message": "must be from 1 to 1000000, was 0"}]}.
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

    @ExceptionHandler(InvalidRequestException.class)
    ProblemDetail invalid(InvalidRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, "Invalid request", e.errors());
    }

    @ExceptionHandler(RunNotFoundException.class)
    ProblemDetail notFound(RunNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "Run not found", List.of(new FieldError("id", e.getMessage())));
    }

    @ExceptionHandler(BaselineNotFoundException.class)
    ProblemDetail baselineNotFound(BaselineNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "Baseline not found", List.of(new FieldError(e.field(), e.getMessage())));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "Invalid request",
                        List.of(new FieldError(e.getParameterName(), "is required (" + parameterHint(e.getParameterType()) + ")"))));
    }

    @ExceptionHandler(RunStateException.class)
    ProblemDetail conflict(RunStateException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Run state does not allow this");
        return problem;
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ProblemDetail typeMismatch(MethodArgumentTypeMismatchException e) {
        return problem(HttpStatus.BAD_REQUEST, "Invalid request",
                List.of(new FieldError(e.getName(), "must be " + typeName(e.getRequiredType()) + ", was '" + e.getValue() + "'")));
    }

    /** Anything unexpected is still a problem+json, with the reason, and logged with its stack. */
    @ExceptionHandler(RuntimeException.class)
    ProblemDetail unexpected(RuntimeException e) {
        logger.error("unexpected error", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                e.getClass().getSimpleName() + ": " + e.getMessage());
        problem.setTitle("Internal error");
        return problem;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        FieldError error = describe(e);
        return ResponseEntity.badRequest().contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "Malformed request body", List.of(error)));
    }

    private static FieldError describe(HttpMessageNotReadableException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return new FieldError(path(unknown), "is not a known field; known here: " + unknown.getKnownPropertyIds());
        }
        if (cause instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null && !mismatch.getPath().isEmpty()) {
            return new FieldError(path(mismatch), "must be " + typeName(mismatch.getTargetType()));
        }
        if (cause instanceof DatabindException db && !db.getPath().isEmpty()) {
            return new FieldError(path(db), db.getOriginalMessage());
        }
        if (cause instanceof JacksonException je) {
            // Jackson's own text names its internals ("start marker at [Source: …]"); keep the first clause.
            String reason = je.getOriginalMessage().split(" \\(|\n|:", 2)[0];
            return new FieldError("body", "is not valid JSON: " + reason
                    + (je.getLocation() == null ? "" : " at line " + je.getLocation().getLineNr() + ", column " + je.getLocation().getColumnNr()));
        }
        if (String.valueOf(cause.getMessage()).startsWith("Required request body is missing")) {
            return new FieldError("body", "is required: a JSON object, e.g. {\"space\": {\"kind\": \"process\"}} (what it leaves out takes the published defaults)");
        }
        return new FieldError("body", "is unreadable: " + cause.getMessage());
    }

    private static String path(DatabindException e) {
        return e.getPath().stream()
                .map(ref -> ref.getPropertyName() != null ? "." + ref.getPropertyName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
    }

    private static String parameterHint(String type) {
        return switch (type) {
            case "double", "Double" -> "a number, e.g. 1.10";
            case "long", "Long", "int", "Integer" -> "a whole number";
            default -> "text";
        };
    }

    /** How an expected Java type reads in an error message. */
    private static String typeName(Class<?> type) {
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
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "a JSON array";
        }
        return "a JSON object";
    }

    private static ProblemDetail problem(HttpStatus status, String title, List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status,
                errors.stream().map(err -> err.field() + ": " + err.message()).collect(Collectors.joining("; ")));
        problem.setTitle(title);
        problem.setProperty("errors", errors);
        return problem;
    }
}
