package dev.spacebench.system;

import java.nio.file.Path;
import java.util.Locale;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The app's data directory: where the H2 database file lives ({@code ./data} by default), and
 * with it the API token ({@code api-token}) and the running server's address ({@code server.json}).
 * The server and the {@code bench} command find each other there.
 */
public final class DataDirectory {

    /** Used when the database is not an H2 file (PostgreSQL, in-memory H2). */
    public static final Path DEFAULT = Path.of("data");

    private DataDirectory() {
    }

    /**
     * @param jdbcUrl a JDBC URL; null or anything but an H2 file database gives {@link #DEFAULT}
     * @return the directory the H2 database file is in (relative paths as H2 resolves them: from
     *     the working directory; {@code ~} is the home directory)
     */
    public static Path of(String jdbcUrl) {
        if (!isH2File(jdbcUrl)) {
            return DEFAULT;
        }
        String rest = path(jdbcUrl);
        if (rest.toLowerCase(Locale.ROOT).startsWith("file:")) {
            rest = rest.substring("file:".length());
        }
        if (rest.startsWith("~")) {
            rest = System.getProperty("user.home") + rest.substring(1);
        }
        Path parent = Path.of(rest).getParent();
        return parent == null ? Path.of(".") : parent;
    }

    /** True for an embedded H2 file database (which one process at a time can open), false for anything else. */
    public static boolean isH2File(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
            return false;
        }
        String lower = path(jdbcUrl).toLowerCase(Locale.ROOT);
        return !(lower.startsWith("mem:") || lower.startsWith("tcp:") || lower.startsWith("ssl:") || lower.startsWith("zip:"));
    }

    /** What follows {@code jdbc:h2:}, without the settings after {@code ;}. */
    private static String path(String h2Url) {
        String rest = h2Url.substring("jdbc:h2:".length());
        int settings = rest.indexOf(';');
        return settings >= 0 ? rest.substring(0, settings) : rest;
    }

    /**
     * The database the app would open here, read the way the app reads its configuration
     * (application.properties, {@code ./config}, environment variables such as
     * {@code SPRING_DATASOURCE_URL}, system properties) without starting it.
     */
    public static String configuredDatabaseUrl() {
        return configuredDatabaseUrl(new String[0]);
    }

    /**
     * As {@link #configuredDatabaseUrl()}, with these command-line arguments ({@code --NAME=VALUE},
     * e.g. {@code --spring.datasource.url=…} or {@code --spring.profiles.active=postgres}) over the rest.
     */
    public static String configuredDatabaseUrl(String[] args) {
        StandardEnvironment environment = new StandardEnvironment();
        if (args.length > 0) {
            environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
        }
        ConfigDataEnvironmentPostProcessor.applyTo(environment);
        return environment.getProperty("spring.datasource.url");
    }
}
