package dev.spacebench.system;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Spring Boot setting that locates the data directory: {@code spring.datasource.url}.
 *
 * @param url the JDBC URL; absent: blank (the default data directory)
 */
@ConfigurationProperties("spring.datasource")
public record DatabaseAt(String url) {

    public DatabaseAt {
        url = url == null ? "" : url;
    }
}
