package dev.spacebench.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.authentication.InsufficientAuthenticationException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a request without the credential it needs is answered: RFC 9457 problem+json under
 * {@code /api/} (401 with {@code WWW-Authenticate: Bearer}, or 403); in a browser, a redirect to
 * the login page that brings it back where it was, with what it had typed ({@link ReturnTo}), once
 * unlocked (401), or the HTML page {@code error/403} (403).
 */
final class AccessProblems implements AuthenticationEntryPoint, AccessDeniedHandler {

    static final String LOGIN = "/login";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException reason) throws IOException {
        if (!isApi(request)) {
            // What the browser was doing comes along, a start form's fields too: nothing typed is lost.
            response.sendRedirect(request.getContextPath() + LOGIN + ReturnTo.query(ReturnTo.of(request), true));
            return;
        }
        response.setHeader("WWW-Authenticate", "Bearer realm=\"spacebench\"");
        boolean presented = request.getHeader("Authorization") != null;
        write(response, 401, "Credential needed", presented
                ? "the Authorization header does not hold this server's API token"
                : "this request needs the API token: send Authorization: Bearer <token> (the token is in the data directory's "
                        + ApiToken.FILE_NAME + " file, or in " + ApiToken.VARIABLE + ")");
    }

    /** Also what the CSRF check calls: a request without any credential is a 401, not a 403. */
    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied) throws IOException {
        if (!trust.isAuthenticated(SecurityContextHolder.getContext().getAuthentication())) {
            commence(request, response, new InsufficientAuthenticationException(denied.getMessage(), denied));
            return;
        }
        if (!isApi(request)) {
            response.sendError(403);
            return;
        }
        write(response, 403, "Forbidden", denied instanceof CsrfException
                ? "a request made with a session cookie needs its CSRF token (the _csrf form field or the X-CSRF-TOKEN header); "
                        + "scripts send Authorization: Bearer <token> instead"
                : "this credential does not allow this request");
    }

    /** Writes a problem+json answer with this status. */
    void write(HttpServletResponse response, int status, String title, String detail) throws IOException {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", title);
        problem.put("status", status);
        problem.put("detail", detail);
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(JSON.writeValueAsString(problem));
    }

    static boolean isApi(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/api/") || path.equals("/api") || path.startsWith("/v3/api-docs") || path.startsWith("/actuator");
    }
}
