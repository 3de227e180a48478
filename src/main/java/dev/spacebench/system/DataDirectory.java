package dev.spacebench.system;

import java.nio.file.Path;
import java.util.Locale;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
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
        if (jdbcUrl == null || !jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
            return DEFAULT;
        }
        String rest = jdbcUrl.substring("jdbc:h2:".length());
        int settings = rest.indexOf(';');
        if (settings >= 0) {
            rest = rest.substring(0, settings);
        }
        String lower = rest.toLowerCase(Locale.ROOT);
        if (lower.startsWith("file:")) {
            rest = rest.substring("file:".length());
        } else if (lower.startsWith("mem:") || lower.startsWith("tcp:") || lower.startsWith("ssl:") || lower.startsWith("zip:")) {
            return DEFAULT;
        }
        if (rest.startsWith("~")) {
            rest = System.getProperty("user.home") + rest.substring(1);
        }
        Path parent = Path.of(rest).getParent();
        return parent == null ? Path.of(".") : parent;
    }

    /** @return true for an H2 URL whose database is a file (not in memory, not on a server) */
    public static boolean isH2File(String jdbcUrl) {
        String lower = jdbcUrl == null ? "" : jdbcUrl.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("jdbc:h2:")) {
            return false;
        }
        String target = lower.substring("jdbc:h2:".length());
        return !(target.startsWith("mem:") || target.startsWith("tcp:") || target.startsWith("ssl:") || target.startsWith("zip:"));
    }

    /**
     * The database the app would open here, read the way the app reads its configuration
     * (application.properties, {@code ./config}, environment variables such as
     * {@code SPRING_DATASOURCE_URL}, system properties) without starting it.
     */
    public static String configuredDatabaseUrl() {
        StandardEnvironment environment = new StandardEnvironment();
        ConfigDataEnvironmentPostProcessor.applyTo(environment);
        return environment.getProperty("spring.datasource.url");
    }
}
