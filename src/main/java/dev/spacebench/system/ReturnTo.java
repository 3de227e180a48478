package dev.spacebench.system;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Where the login page sends a browser back to once it is unlocked: the page it was refused, and
 * for the dashboard's start form the dashboard with what was typed in it (as the query string the
 * dashboard's form reads, e.g. {@code /?kind=process&execN=40}), so nothing typed is lost.
 * Only a path of this app is ever returned to.
 */
final class ReturnTo {

    /** The login form's field (and the login page's parameter) that carries it. */
    static final String PARAMETER = "then";
    /** The dashboard's start form's action. */
    static final String START_FORM = "/runs";
    /** Longer than any form the dashboard sends; a longer one returns to the dashboard as it is. */
    static final int MAX_LENGTH = 4000;

    private ReturnTo() {
    }

    /** Where {@code request}, refused for lack of a credential, should be taken up again after unlocking. */
    static String of(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (request.getMethod().equals("GET")) {
            return safe(path + (request.getQueryString() == null ? "" : "?" + request.getQueryString()));
        }
        if (request.getMethod().equals("POST") && path.equals(START_FORM)) {
            StringJoiner query = new StringJoiner("&", "/?", "");
            for (Map.Entry<String, String[]> field : request.getParameterMap().entrySet()) {
                if (field.getKey().equals("_csrf")) {
                    continue;
                }
                for (String value : field.getValue()) {
                    query.add(encode(field.getKey()) + "=" + encode(value));
                }
            }
            return safe(query.toString());
        }
        return "/";
    }

    /**
     * @param target a path as {@link #of} gives it, or anything a client sent
     * @return {@code target} when it is a path of this app (one leading '/', no scheme or host, no
     *     line break, at most {@value #MAX_LENGTH} characters); else the dashboard, {@code /}
     */
    static String safe(String target) {
        if (target == null || target.length() > MAX_LENGTH || !target.startsWith("/") || target.startsWith("//")
                || target.startsWith("/\\") || target.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "/";
        }
        return target;
    }

    /** {@code ?then=…} for a login page URL, or nothing when it would return to the dashboard anyway. */
    static String query(String target, boolean first) {
        String safe = safe(target);
        return safe.equals("/") ? "" : (first ? "?" : "&") + PARAMETER + "=" + encode(safe);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
