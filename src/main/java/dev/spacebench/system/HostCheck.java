package dev.spacebench.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses (421 problem+json) every request whose {@code Host} header is not an address this app
 * serves: a web page whose name an attacker re-points at 127.0.0.1 (DNS rebinding) then reaches
 * nothing. Answered: loopback addresses and {@code localhost}, {@code server.address} and the
 * address the connection arrived at, each with the app's port; and
 * {@code spacebench.security.allowed-hosts}.
 */
final class HostCheck extends OncePerRequestFilter {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]+");
    private static final int SHOWN = 100;

    private final String serverAddress;
    private final List<String> allowedHosts;
    private final AccessProblems problems;

    HostCheck(String serverAddress, List<String> allowedHosts, AccessProblems problems) {
        this.serverAddress = serverAddress == null || serverAddress.isBlank() ? null : unbracket(serverAddress.strip().toLowerCase(Locale.ROOT));
        this.allowedHosts = allowedHosts;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String host = request.getHeader("Host");
        if (allowed(host, request.getLocalPort(), request.getLocalAddr())) {
            chain.doFilter(request, response);
            return;
        }
        String shown = host == null ? "(none)" : "'" + (host.length() > SHOWN ? host.substring(0, SHOWN) + "…" : host) + "'";
        problems.write(response, 421, "Host not served here", "Host " + shown + " is not an address this app serves (127.0.0.1, localhost, [::1]"
                + (serverAddress == null || isLoopbackLiteral(serverAddress) ? "" : " or " + serverAddress) + " with port " + request.getLocalPort()
                + "); if it is yours, add it to spacebench.security.allowed-hosts");
    }

    boolean allowed(String header, int localPort, String localAddress) {
        HostPort host = HostPort.parse(header);
        if (host == null) {
            return false;
        }
        for (String entry : allowedHosts) {
            HostPort allowed = HostPort.parse(entry);
            if (allowed != null && allowed.name.equals(host.name) && (allowed.port == null || allowed.port.equals(host.port))) {
                return true;
            }
        }
        if ((host.port == null ? 80 : host.port) != localPort) {
            return false;
        }
        if (host.name.equals("localhost") || host.name.equals(serverAddress)) {
            return true;
        }
        InetAddress ip = literal(host.name);
        return ip != null && (ip.isLoopbackAddress() || ip.equals(literal(localAddress == null ? "" : localAddress.toLowerCase(Locale.ROOT))));
    }

    /** An IP address written as one, or null for a name (never looked up: a name is what an attacker controls). */
    private static InetAddress literal(String name) {
        if (!IPV4.matcher(name).matches() && !(name.contains(":") && IPV6.matcher(name).matches())) {
            return null;
        }
        try {
            return InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isLoopbackLiteral(String name) {
        InetAddress ip = literal(name);
        return ip != null && ip.isLoopbackAddress();
    }

    private static String unbracket(String name) {
        return name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
    }

    /** A Host header split into its lower-case name (IPv6 without brackets) and port (null when absent). */
    private record HostPort(String name, Integer port) {

        static HostPort parse(String header) {
            if (header == null || header.isBlank() || header.length() > 300) {
                return null;
            }
            String text = header.strip().toLowerCase(Locale.ROOT);
            String name;
            String port = null;
            if (text.startsWith("[")) {
                int end = text.indexOf(']');
                if (end < 0) {
                    return null;
                }
                name = text.substring(1, end);
                String rest = text.substring(end + 1);
                if (!rest.isEmpty()) {
                    if (!rest.startsWith(":")) {
                        return null;
                    }
                    port = rest.substring(1);
                }
            } else {
                int colon = text.indexOf(':');
                if (colon >= 0 && colon != text.lastIndexOf(':')) {
                    return null; // an IPv6 address must be in brackets
                }
                name = colon < 0 ? text : text.substring(0, colon);
                port = colon < 0 ? null : text.substring(colon + 1);
            }
            if (name.endsWith(".")) {
                name = name.substring(0, name.length() - 1);
            }
            if (name.isEmpty() || (port != null && !port.matches("\\d{1,5}"))) {
                return null;
            }
            return new HostPort(name, port == null ? null : Integer.valueOf(port));
        }
    }
}
