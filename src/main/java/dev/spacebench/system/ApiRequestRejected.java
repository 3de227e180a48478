package dev.spacebench.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * What Spring Security's firewall refuses (a {@code ;}, {@code //}, {@code %25} or an encoded
 * {@code .} in the path) answers problem+json naming {@code path} under {@code /api/}; elsewhere a
 * plain 400 as Spring's default handler gives. Without it the refusal went through Boot's
 * {@code /error} as {@code application/json} with no field.
 */
@Component
class ApiRequestRejected implements RequestRejectedHandler {

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected) throws IOException {
        String uri = request.getRequestURI();
        if (uri == null || !uri.startsWith("/api/")) {
            response.sendError(HttpStatus.BAD_REQUEST.value());
            return;
        }
        // Spring's reason names the sequence: "The request was rejected because the URL contained a potentially malicious String ";"".
        String reason = String.valueOf(rejected.getMessage()).replaceFirst("^The request was rejected because ", "");
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(ApiErrorReportValve.problemJson(HttpStatus.BAD_REQUEST.value(), uri,
                ApiErrorReportValve.error("path", "was refused: " + reason)));
    }
}
