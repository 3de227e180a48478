package dev.spacebench.system;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Keeps an H2 database file to the user who runs the app, in every role (server, worker, bench):
 * <ul>
 *   <li>refuses {@code AUTO_SERVER=TRUE} unless {@code spacebench.database.allow-h2-server=true}: with
 *       it H2 listens on every interface and writes its server's key into a lock file beside the
 *       database, so any local user who reads it logs in as SA (and H2's SQL runs Java in the app);</li>
 *   <li>makes the database's directory {@code rwx------} (created so if missing) and the database's
 *       files there {@code rw-------}, before H2 opens them and again once the app has started (the
 *       files H2 made meanwhile: a new database, the lock file); any made later are inside the private directory. A directory the app does not own as a data directory (the working
 *       directory, the home directory, a temp directory, {@code /}) keeps its mode: then only the files are
 *       tightened, and the log says so.</li>
 * </ul>
 */
@Component
public class H2FilePrivacy implements BeanPostProcessor, ApplicationListener<ApplicationReadyEvent> {

    /** The property that lets an H2 URL with AUTO_SERVER=TRUE through. */
    public static final String ALLOW_SERVER = "spacebench.database.allow-h2-server";

    private static final Logger log = LoggerFactory.getLogger(H2FilePrivacy.class);
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private final boolean allowServer;
    private volatile String h2FileUrl;

    public H2FilePrivacy(Environment environment) {
        this.allowServer = environment.getProperty(ALLOW_SERVER, Boolean.class, false);
    }

    /** Once started: the files H2 made meanwhile (the database itself when new, its lock file with the server's key). */
    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        String url = h2FileUrl;
        if (url != null) {
            secure(DataDirectory.of(url), baseName(url));
        }
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null) {
            String url = pool.getJdbcUrl();
            if (autoServer(url) && !allowServer) {
                throw new H2ServerRefusedException();
            }
            if (DataDirectory.isH2File(url)) {
                h2FileUrl = url;
                secure(DataDirectory.of(url), baseName(url));
            }
        }
        return bean;
    }

    /** True for an H2 URL that asks for AUTO_SERVER=TRUE (any case, any place among its settings). */
    static boolean autoServer(String url) {
        if (!url.regionMatches(true, 0, "jdbc:h2:", 0, "jdbc:h2:".length())) {
            return false;
        }
        String[] parts = url.split(";");
        for (int i = 1; i < parts.length; i++) {
            String setting = parts[i].replace(" ", "").toUpperCase(Locale.ROOT);
            if (setting.equals("AUTO_SERVER=TRUE")) {
                return true;
            }
        }
        return false;
    }

    /** The database's file name without H2's suffixes ({@code spacebench} of {@code ./data/spacebench}). */
    private static String baseName(String url) {
        String path = url.substring("jdbc:h2:".length()).split(";")[0];
        if (path.regionMatches(true, 0, "file:", 0, "file:".length())) {
            path = path.substring("file:".length());
        }
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return path.substring(slash + 1);
    }

    /**
     * @param dir the database's directory, created {@code rwx------} if missing
     * @param base the database's file name without suffix; its files in {@code dir} become {@code rw-------}
     */
    static void secure(Path dir, String base) {
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
            }
            if (sharedDirectory(dir)) {
                log.warn("the H2 database is in {}, a directory the app leaves as it is; its files are made rw------- "
                        + "(give it a directory of its own, e.g. jdbc:h2:file:./data/spacebench, to have that private too)", dir);
            } else if (!Files.getPosixFilePermissions(dir).equals(OWNER_DIR)) {
                Files.setPosixFilePermissions(dir, OWNER_DIR);
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    if (file.getFileName().toString().startsWith(base + ".") && Files.isRegularFile(file)
                            && !Files.getPosixFilePermissions(file).equals(OWNER_FILE)) {
                        Files.setPosixFilePermissions(file, OWNER_FILE);
                    }
                }
            }
        } catch (UnsupportedOperationException notPosix) {
            // A file system without POSIX permissions: nothing to set.
        } catch (IOException e) {
            throw new UncheckedIOException("could not make the database's directory " + dir + " private: " + e.getMessage(), e);
        }
    }

    private static boolean sharedDirectory(Path dir) throws IOException {
        Path real = dir.toRealPath();
        for (String shared : new String[] {".", System.getProperty("user.home"), System.getProperty("java.io.tmpdir"), "/", "/tmp", "/var/tmp"}) {
            try {
                if (real.equals(Path.of(shared).toRealPath())) {
                    return true;
                }
            } catch (IOException | RuntimeException absent) {
                // not there on this host
            }
        }
        return false;
    }

    /** Thrown at start for an H2 URL with AUTO_SERVER=TRUE; {@link H2ServerRefusedAnalyzer} says why, without a stack trace. */
    public static final class H2ServerRefusedException extends RuntimeException {

        H2ServerRefusedException() {
            super("spring.datasource.url asks H2 for AUTO_SERVER=TRUE, refused: H2 would then listen on every interface and "
                    + "keep its login key in a lock file other local users can read, so any of them could connect as SA "
                    + "and run Java in this app");
        }

        /** What to do instead. */
        public String action() {
            return "Leave AUTO_SERVER out (bench finds a running server through data/server.json and goes through its REST API), "
                    + "use PostgreSQL for several processes or machines on one database, or set " + ALLOW_SERVER
                    + "=true to accept the exposure";
        }
    }
}
