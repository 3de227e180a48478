package dev.spacebench.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses (403 problem+json) a state-changing request (any method but GET, HEAD, OPTIONS, TRACE)
 * that a browser says came from another origin: its {@code Origin} header, or when there is none
 * its {@code Referer}, must be this app's own ({@code scheme://Host} of the request, which
 * {@link HostCheck} has already let in). A page elsewhere that got hold of a session's
 * {@code _csrf} value still cannot post with it. A request carrying neither header (a script with
 * the API token, curl) is let through to the credential checks: browsers send {@code Origin} on
 * every cross-site POST.
 */
final class OriginCheck extends OncePerRequestFilter {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final int SHOWN = 100;

    private final AccessProblems problems;

    OriginCheck(AccessProblems problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (SAFE.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
            chain.doFilter(request, response);
            return;
        }
        String origin = request.getHeader("Origin");
        String header = origin != null ? "Origin" : "Referer";
        String claimed = origin != null ? origin : request.getHeader("Referer");
        if (claimed == null || sameOrigin(claimed, request.getScheme(), request.getHeader("Host"))) {
            chain.doFilter(request, response);
            return;
        }
        String shown = claimed.length() > SHOWN ? claimed.substring(0, SHOWN) + "…" : claimed;
        problems.write(response, 403, "Cross-site request refused", request.getMethod() + " " + request.getRequestURI()
                + " came with " + header + " '" + shown + "', which is not this app's own origin (" + request.getScheme() + "://"
                + request.getHeader("Host") + "): state changes are taken only from this app's own pages, or from scripts with the API token");
    }

    /** True when {@code claimed} (an origin, or a full URL) has this scheme and this Host (host and port). */
    static boolean sameOrigin(String claimed, String scheme, String host) {
        if (host == null) {
            return false;
        }
        try {
            URI uri = new URI(claimed.strip());
            if (uri.getScheme() == null || uri.getRawAuthority() == null || !uri.getScheme().equalsIgnoreCase(scheme)) {
                return false; // "null" (a sandboxed frame, a file), or another scheme
            }
            return withPort(uri.getRawAuthority(), scheme).equals(withPort(host, scheme));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** host:port, lower-case, with the scheme's default port written out. */
    private static String withPort(String authority, String scheme) {
        String text = authority.strip().toLowerCase(Locale.ROOT);
        int bracket = text.lastIndexOf(']');
        boolean hasPort = text.lastIndexOf(':') > bracket && (bracket >= 0 || text.indexOf(':') == text.lastIndexOf(':'));
        return hasPort ? text : text + ":" + ("https".equalsIgnoreCase(scheme) ? 443 : 80);
    }
}
