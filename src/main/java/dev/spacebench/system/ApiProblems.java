package dev.spacebench.system;

import dev.spacebench.baseline.BaselineNotFoundException;
import dev.spacebench.database.DatabaseDisk;
import dev.spacebench.database.DatabaseUnavailableException;
import dev.spacebench.request.FieldError;
import dev.spacebench.plan.PlanLimits;
import dev.spacebench.plan.Shown;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.run.PlanSettings;
import dev.spacebench.request.RequestBodyErrors;
import dev.spacebench.run.RunNotFoundException;
import dev.spacebench.run.RunStateException;
import java.util.List;
import java.util.UUID;
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

/**
 * RFC 9457 problem+json for every REST error. Bad input names its fields in an {@code errors}
 * array: {@code [{"field": "plan.exec.n", "message": "must be from 1 to 1000000, was 0"}]}.
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

    private final PlanLimits limits;
    private final DatabaseDisk disk;

    public ApiProblems(PlanSettings plan, DatabaseDisk disk) {
        this.limits = plan.limits();
        this.disk = disk;
    }

    /** The database cannot take writes (its disk is full): 503 naming the cause, for as long as it lasts. */
    @ExceptionHandler(DatabaseUnavailableException.class)
    ProblemDetail unavailable(DatabaseUnavailableException e) {
        return unavailable(e.getMessage());
    }

    private static ProblemDetail unavailable(String reason) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, reason);
        problem.setTitle("Database unavailable");
        return problem;
    }

    @ExceptionHandler(InvalidRequestException.class)
    ProblemDetail invalid(InvalidRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, "Invalid request", e.errors());
    }

    @ExceptionHandler(RunNotFoundException.class)
    ProblemDetail notFound(RunNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "Run not found", List.of(new FieldError(e.field(), e.getMessage())));
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
                List.of(new FieldError(e.getName(), "must be " + typeName(e.getRequiredType()) + ", was " + Shown.quote(e.getValue()))));
    }

    /**
     * Anything unexpected is still a problem+json, logged with its stack under a reference the
     * answer gives; the answer itself names no exception class and no SQL. (Checked exceptions,
     * such as a client that went away, stay with Spring, whose error answer names nothing either.)
     */
    @ExceptionHandler(RuntimeException.class)
    ProblemDetail unexpected(RuntimeException e) {
        if (disk.noteFailure(e)) {
            // Said once in the log by DatabaseDisk, not once per request.
            return unavailable(disk.problem().orElse("the database's disk is full") + "; try again once there is room on it");
        }
        String reference = UUID.randomUUID().toString().substring(0, 8);
        logger.error("unexpected error (reference " + reference + ")", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "the app met an error it did not expect; its log has the details under reference " + reference);
        problem.setTitle("Internal error");
        problem.setProperty("reference", reference);
        return problem;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException) {
                return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
                        .body(problem(HttpStatus.CONTENT_TOO_LARGE, "Request body too large", List.of(new FieldError("body",
                                "must be at most " + RequestBodyLimit.MAX_BODY_BYTES + " bytes (16 MiB)"))));
            }
        }
        FieldError error = describe(e);
        return ResponseEntity.badRequest().contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "Malformed request body", List.of(error)));
    }

    private FieldError describe(HttpMessageNotReadableException e) {
        Throwable cause = e.getMostSpecificCause();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException je) {
                return RequestBodyErrors.describe(je, "", limits);
            }
        }
        if (String.valueOf(cause.getMessage()).startsWith("Required request body is missing")) {
            return new FieldError("body", "is required: a JSON object, e.g. {\"space\": {\"kind\": \"process\"}} (what it leaves out takes the published defaults)");
        }
        return new FieldError("body", "is unreadable as JSON");
    }

    private static String parameterHint(String type) {
        return switch (type) {
            case "double", "Double" -> "a number, e.g. 1.10";
            case "long", "Long", "int", "Integer" -> "a whole number";
            default -> "text";
        };
    }

    private static String typeName(Class<?> type) {
        return RequestBodyErrors.typeName(type);
    }

    private static ProblemDetail problem(HttpStatus status, String title, List<FieldError> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status,
                errors.stream().map(err -> err.field() + ": " + err.message()).collect(Collectors.joining("; ")));
        problem.setTitle(title);
        problem.setProperty("errors", errors);
        return problem;
    }
}
