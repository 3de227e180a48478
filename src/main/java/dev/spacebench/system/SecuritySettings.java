package dev.spacebench.system;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code spacebench.security.*}.
 *
 * @param allowedHosts extra {@code Host} header values the app answers, besides the address it
 *     serves on ({@code 127.0.0.1}, {@code localhost}, {@code [::1]} and {@code server.address},
 *     each with the app's port): {@code name} (any port) or {@code name:port}, e.g. the name of a
 *     reverse proxy in front of it. Every other Host is refused (DNS rebinding).
 */
@ConfigurationProperties("spacebench.security")
public record SecuritySettings(List<String> allowedHosts) {

    public SecuritySettings {
        allowedHosts = allowedHosts == null ? List.of() : allowedHosts.stream().map(String::strip).filter(h -> !h.isEmpty()).toList();
    }
}
