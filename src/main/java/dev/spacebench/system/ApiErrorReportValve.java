package dev.spacebench.system;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report for what it refuses before the app sees the request: an encoded {@code /}
 * or {@code \} in the path ({@code %2F}, {@code %5C}), a request line and headers over
 * {@code server.max-http-request-header-size}, a character that must be percent-encoded. Under
 * {@code /api/}, and when Tomcat could not read the path at all, the answer is RFC 9457
 * problem+json naming {@code path} (or {@code headers}), as every other API error is; anywhere
 * else Tomcat's own HTML page, as before.
 * <p>
 * Such a request never reaches the app's error page ({@code /error}) nor {@link ApiProblems}: Tomcat
 * answers from its host's valve. Installed by {@link TomcatErrors} in place of the plain
 * {@link ErrorReportValve} Spring Boot adds.
 */
public class ApiErrorReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern ENCODED_SEPARATOR = Pattern.compile("%(2[fF]|5[cC])");
    /** The longest path an answer repeats; a longer one is named by its length only. */
    static final int MAX_SHOWN_PATH = 200;

    public ApiErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        // Null when Tomcat could not read the request line: no browser sends one (it percent-encodes), so a script it is.
        String uri = request.getRequestURI();
        if (uri != null && !uri.startsWith("/api/")) {
            super.report(request, response, throwable);
            return;
        }
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        String problem = problemJson(status, uri, why(uri, status, throwable));
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(problem);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client went away, or the response was closed meanwhile: nothing left to tell.
        }
    }

    /**
     * An RFC 9457 problem as the API's others read: {@code errors} holds the one field error.
     *
     * @param uri the path as sent; repeated as {@code instance} up to {@value #MAX_SHOWN_PATH} characters
     */
    static String problemJson(int status, String uri, Map<String, Object> error) {
        HttpStatus known = HttpStatus.resolve(status);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", known == null ? "Error" : known.getReasonPhrase());
        problem.put("status", status);
        problem.put("detail", error.get("field") + ": " + error.get("message"));
        if (uri != null && uri.length() <= MAX_SHOWN_PATH) {
            problem.put("instance", uri);
        }
        problem.put("errors", List.of(error));
        return JSON.writeValueAsString(problem);
    }

    /**
     * The field and message of what Tomcat refused, from its exception (Tomcat's own message names
     * no field and may repeat the whole request line).
     *
     * @param uri the request's path as sent, null when Tomcat could not read the request line
     */
    static Map<String, Object> why(String uri, int status, Throwable refused) {
        String reason = refused == null ? "" : String.valueOf(refused.getMessage());
        if (reason.startsWith("Request header is too large")) {
            // Tomcat reads the request line first: with no path read, the path is what overflowed.
            return uri == null
                    ? error("path", "is too long: the request line and headers may be at most server.max-http-request-header-size "
                            + "(8 KB by default) in all")
                    : error("headers", "are too large: the request line and headers may be at most "
                            + "server.max-http-request-header-size (8 KB by default) in all");
        }
        if (reason.startsWith("Invalid character found in the request target")) {
            return error("path", "has a character that must be percent-encoded (RFC 3986), e.g. '|' as %7C or a space as %20");
        }
        if (uri != null && ENCODED_SEPARATOR.matcher(uri).find()) {
            return error("path", "must not contain an encoded '/' or '\\' (%2F, %5C): no name, slug, id or metric in a path has one");
        }
        return error(uri == null ? "request" : "path", "was refused before it reached the app (HTTP " + status + ")");
    }

    static Map<String, Object> error(String field, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("field", field);
        error.put("message", message);
        return error;
    }
}
