package dev.spacebench.system;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The one Spring Boot setting the security checks read: {@code server.address}.
 *
 * @param address the address the web app listens on; blank or absent: every address
 */
@ConfigurationProperties("server")
public record ServedAt(String address) {

    public ServedAt {
        address = address == null ? "" : address;
    }
}
