package dev.spacebench.system;

import dev.spacebench.baseline.BaselineNotFoundException;
import dev.spacebench.database.DatabaseDisk;
import dev.spacebench.database.DatabaseUnavailableException;
import dev.spacebench.request.FieldError;
import dev.spacebench.plan.Shown;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.run.RunNotFoundException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Browsers get an HTML error page (template {@code error}) for the pages' paths: a request that
 * accepts {@code text/html} and is not under {@code /api/}. Everything else, and all of
 * {@code /api/**}, gets problem+json from {@link ApiProblems}. Runs before Spring's own resolvers.
 */
@Component
public class HtmlErrorPages implements HandlerExceptionResolver, Ordered {

    private static final Logger log = LoggerFactory.getLogger(HtmlErrorPages.class);

    private final DatabaseDisk disk;

    public HtmlErrorPages(DatabaseDisk disk) {
        this.disk = disk;
    }

    @Override
    public int getOrder() {
        // Right after Boot's DefaultErrorAttributes (which only remembers the exception), before MVC's resolvers.
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler, Exception e) {
        if (!wantsHtml(request) || response.isCommitted()) {
            return null;
        }
        HttpStatusCode status;
        List<FieldError> problems = List.of();
        String reference = null;
        if (e instanceof RunNotFoundException notFound) {
            status = HttpStatus.NOT_FOUND;
            problems = List.of(new FieldError(notFound.field(), notFound.getMessage()));
        } else if (e instanceof BaselineNotFoundException notFound) {
            status = HttpStatus.NOT_FOUND;
            problems = List.of(new FieldError(notFound.field(), notFound.getMessage()));
        } else if (e instanceof InvalidRequestException invalid) {
            status = HttpStatus.BAD_REQUEST;
            problems = invalid.errors();
        } else if (e instanceof MethodArgumentTypeMismatchException mismatch) {
            status = HttpStatus.BAD_REQUEST;
            problems = List.of(new FieldError(mismatch.getName(), "must be a whole number, was " + Shown.quote(mismatch.getValue())));
        } else if (e instanceof MissingServletRequestParameterException missing) {
            status = HttpStatus.BAD_REQUEST;
            problems = List.of(new FieldError(missing.getParameterName(), "is required"));
        } else if (e instanceof DatabaseUnavailableException unavailable) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            problems = List.of(new FieldError("database", unavailable.getMessage()));
        } else if (disk.noteFailure(e)) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            problems = List.of(new FieldError("database", disk.problem().orElse("the database's disk is full")
                    + "; try again once there is room on it"));
        } else if (e instanceof ErrorResponse known) {
            // Spring's own: no such page (404), wrong method (405), …
            status = known.getStatusCode();
        } else {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
            reference = UUID.randomUUID().toString().substring(0, 8);
            log.error("unexpected error on {} (reference {})", request.getRequestURI(), reference, e);
        }
        Map<String, Object> model = new HashMap<>();
        model.put("status", status.value());
        HttpStatus known = HttpStatus.resolve(status.value());
        model.put("error", known == null ? "Error" : known.getReasonPhrase());
        model.put("path", request.getRequestURI());
        model.put("problems", problems);
        model.put("reference", reference);
        ModelAndView page = new ModelAndView("error", model, status);
        return page;
    }

    private static boolean wantsHtml(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/api/")) {
            return false;
        }
        String accept = request.getHeader("Accept");
        if (accept == null) {
            return false;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream().anyMatch(type -> type.isCompatibleWith(MediaType.TEXT_HTML)
                    && !type.isWildcardType());
        } catch (RuntimeException ex) {
            return false;
        }
    }
}
