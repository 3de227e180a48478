package dev.spacebench;

import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a browser without JavaScript does, over real HTTP: keeps its cookies (the session), asks
 * for HTML, does not follow redirects (tests look at them), and sends a form with the CSRF field
 * the page that holds the form gave it.
 */
public final class BrowserSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final Function<String, URI> uri;
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    public BrowserSession(Function<String, URI> uri) {
        this.uri = uri;
    }

    public HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri.apply(path)).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The CSRF field of the first form on this page. */
    public String csrf(String page) throws Exception {
        HttpResponse<String> response = get(page);
        Matcher m = CSRF.matcher(response.body());
        if (!m.find()) {
            throw new AssertionError("no _csrf field on " + page + " (" + response.statusCode() + ")");
        }
        return m.group(1);
    }

    /** Posts the form as the page {@code formPage} holds it: with that page's CSRF field. */
    public HttpResponse<String> submit(String formPage, String action, Map<String, String> fields) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(fields);
        all.put("_csrf", csrf(formPage));
        return post(action, all, Map.of());
    }

    /** Posts form fields as given (a cross-site form sends no CSRF field), with extra headers. */
    public HttpResponse<String> post(String action, Map<String, String> fields, Map<String, String> headers) throws Exception {
        String body = fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.apply(action)).header("Accept", "text/html")
                .header("Content-Type", "application/x-www-form-urlencoded");
        headers.forEach(request::header);
        return http.send(request.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
