package dev.spacebench.system;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.stereotype.Component;

/**
 * Makes an H2 database, whatever URL the user gave, keep what the app reported as saved:
 * <ul>
 *   <li>{@code WRITE_DELAY=0}: H2 otherwise writes committed transactions to its file up to a
 *       second later, so {@code kill -9} loses samples the API already counted;</li>
 *   <li>{@code DB_CLOSE_ON_EXIT=FALSE} for an embedded database: H2's own JVM exit hook would
 *       otherwise close the database while the app is still stopping, before a running run records
 *       its end. The app closes its connection pool last instead, which closes the database.
 *       H2 refuses this together with {@code AUTO_SERVER=TRUE}; such a URL keeps H2's hook, and a
 *       run stopped by SIGTERM is then marked INTERRUPTED at the next start.</li>
 * </ul>
 * A setting the URL already names is left as given. Other databases are untouched (PostgreSQL
 * is durable on commit).
 */
@Component
public class H2Durability implements BeanPostProcessor {

    private static final Logger log = LoggerFactory.getLogger(H2Durability.class);

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null) {
            String url = pool.getJdbcUrl();
            String durable = durable(url);
            if (!durable.equals(url)) {
                pool.setJdbcUrl(durable);
            }
            if (isH2(url) && settings(url).contains("AUTO_SERVER") && !settings(durable).contains("DB_CLOSE_ON_EXIT")) {
                log.info("H2 with AUTO_SERVER=TRUE closes its database on SIGTERM by itself: a run stopped that way is "
                        + "marked INTERRUPTED at the next start");
            }
        }
        return bean;
    }

    /**
     * @param url a JDBC URL
     * @return the same URL with {@code ;WRITE_DELAY=0} and, for an embedded H2 database without
     *     AUTO_SERVER, {@code ;DB_CLOSE_ON_EXIT=FALSE} appended where it does not name them; any
     *     other URL unchanged
     */
    public static String durable(String url) {
        if (!isH2(url)) {
            return url;
        }
        Set<String> given = settings(url);
        StringBuilder result = new StringBuilder(url);
        if (!given.contains("WRITE_DELAY")) {
            result.append(";WRITE_DELAY=0");
        }
        String target = url.substring("jdbc:h2:".length()).toLowerCase(Locale.ROOT);
        boolean remote = target.startsWith("tcp:") || target.startsWith("ssl:");
        boolean autoServer = given.contains("AUTO_SERVER") && url.toUpperCase(Locale.ROOT).contains("AUTO_SERVER=TRUE");
        if (!remote && !autoServer && !given.contains("DB_CLOSE_ON_EXIT")) {
            result.append(";DB_CLOSE_ON_EXIT=FALSE");
        }
        return result.toString();
    }

    private static boolean isH2(String url) {
        return url != null && url.regionMatches(true, 0, "jdbc:h2:", 0, "jdbc:h2:".length());
    }

    /** The names of the settings after the first ';', upper case. */
    private static Set<String> settings(String url) {
        Set<String> names = new TreeSet<>();
        String[] parts = url.split(";");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            names.add((eq < 0 ? parts[i] : parts[i].substring(0, eq)).trim().toUpperCase(Locale.ROOT));
        }
        return names;
    }
}
