package dev.spacebench.database;

import ch.qos.logback.classic.LoggerContext;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.spacebench.system.DataDirectory;
import dev.spacebench.system.DatabaseAt;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Whether the database's disk is full, and the way back from it without a restart.
 * <p>
 * When H2 cannot write its file ("No space left on device") it closes the database: every
 * connection the pool holds then fails, while H2's {@code isValid} still says yes, so the pool
 * would keep them for ever. So the first failure anyone reports here ({@link #noteFailure}) turns the
 * app to "disk full": it says so once in the log, gives back the room it kept in reserve beside an H2
 * file ({@code disk-reserve} in the data directory, {@link DatabaseSettings#diskReserve()}) and has
 * the pool replace its connections, on which H2 opens the file anew: the run under way records its
 * end (FAILED, with {@link #problem()} as the reason) and reads work. Meanwhile health is DOWN and
 * new runs are refused with the reason ({@link DatabaseUnavailableException}, a 503). Every second
 * it looks again ({@link #check()}); once the disk has room for the reserve again it makes it anew and
 * the app carries on. The same for PostgreSQL's "disk full" (SQLSTATE 53100), without a reserve.
 * Other code's log lines about it go through here too ({@link DiskFullLogFilter}): said once, then
 * counted.
 */
@Component
public class DatabaseDisk {

    private static final Logger log = LoggerFactory.getLogger(DatabaseDisk.class);
    private static final String NO_SPACE = "No space left on device";
    private static final String FULL = "the database's disk is full";
    /** The first line of a reserve given back ({@link #freeReserve}); where and when follow on a line each. */
    private static final String USED_MARK = "spacebench: this reserve was given back when the disk was full, then:";
    /** PostgreSQL's disk_full. */
    private static final String DISK_FULL_STATE = "53100";
    private static final long HEADROOM_BYTES = 1L << 20;
    /** H2's DATABASE_IS_CLOSED. */
    static final int H2_DATABASE_CLOSED = 90098;
    private static final long RELOG_EVERY_NS = 60_000_000_000L;
    private static final long EVICT_EVERY_NS = 1_000_000_000L;

    private final DataSource dataSource;
    /** The data directory of an H2 file database; null for other databases. */
    private final Path dir;
    private final Path reserve;
    private final long reserveBytes;
    private volatile String problem;
    private final AtomicLong failuresSinceLog = new AtomicLong();
    private volatile long loggedAt;
    private volatile long evictedAt;
    private final DiskFullLogFilter logFilter;
    /** What the reserve said at start when the app before this one had used it and never got room back; null otherwise. */
    private final String fullWhenLastStopped;

    public DatabaseDisk(DataSource dataSource, DatabaseAt database, DatabaseSettings settings) {
        this.dataSource = dataSource;
        this.dir = DataDirectory.isH2File(database.url()) ? DataDirectory.of(database.url()).toAbsolutePath().normalize() : null;
        this.reserveBytes = settings.diskReserve().toBytes();
        this.reserve = dir == null || reserveBytes == 0 ? null : dir.resolve("disk-reserve");
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            logFilter = new DiskFullLogFilter(this);
            logback.addTurboFilter(logFilter);
        } else {
            logFilter = null;
        }
        this.fullWhenLastStopped = reserve == null ? null : readUsedMark();
        if (fullWhenLastStopped != null) {
            log.warn("the database's disk was full when the app last stopped ({}): runs left RUNNING then end INTERRUPTED "
                    + "saying so (the reserve beside the database, {}, had been given back and not made again)", fullWhenLastStopped, reserve);
        }
        if (reserve != null) {
            try {
                makeReserve();
            } catch (IOException e) {
                if (String.valueOf(e.getMessage()).contains(NO_SPACE)) {
                    problem = describe();
                    log.error("{} at start: new runs are refused until there is room again (the app looks every second)", problem);
                } else {
                    log.warn("could not keep {} in reserve beside the database ({}): a full disk may then leave a run without its end",
                            reserve, e.toString());
                }
            }
        }
    }

    @PreDestroy
    void stopFilteringTheLog() {
        if (logFilter != null && LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            logback.getTurboFilterList().remove(logFilter);
        }
    }

    /** @return the reason while the database's disk is full, e.g. "the database's disk is full (No space left on device in /srv/data)"; empty otherwise */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /**
     * Whether the app that ran on this database before this start stopped while its disk was full:
     * it had used the room it kept in reserve ({@link #noteFailure}) and the disk never had room
     * for it again. A run it left RUNNING then could not record its end, even on that room.
     *
     * @return what it said and since when, e.g. "No space left on device in /srv/data, since
     *     2026-12-03 15:43:02 UTC"; empty otherwise, and for a database without a reserve
     */
    public Optional<String> fullWhenLastStopped() {
        return Optional.ofNullable(fullWhenLastStopped);
    }

    /** @throws DatabaseUnavailableException naming the reason while the database's disk is full */
    public void requireRoom() {
        String now = problem;
        if (now != null) {
            throw new DatabaseUnavailableException(now + "; new runs are refused until there is room on it again "
                    + "(the app looks every second and carries on by itself)");
        }
    }

    /**
     * Reports a failure from anywhere that used the database. When it is the disk being full, the
     * app turns to "disk full" (see the class comment); the first such failure is logged, the rest
     * counted and summed up at most once a minute.
     *
     * @return true when {@code failure} was the database's disk being full (the caller then need not log it)
     */
    public boolean noteFailure(Throwable failure) {
        if (!isDiskFull(failure) && !(databaseBroke(failure) && (problem != null || nearlyFull()))) {
            return false;
        }
        boolean first;
        synchronized (this) {
            first = problem == null;
            if (first) {
                problem = dir == null ? describe(failure) : describe();
            }
        }
        long now = System.nanoTime();
        if (first) {
            loggedAt = now;
            failuresSinceLog.set(0);
            log.error(dir == null
                    ? "{}: the run under way ends FAILED and new runs are refused until the database answers again (it looks every second)"
                    : "{}: H2 closed the database. The app gives back the room it kept in reserve, reopens the database, "
                    + "ends the run under way FAILED and refuses new runs until the disk has room again (it looks every second)",
                    problem);
            freeReserve();
        } else if (now - loggedAt > RELOG_EVERY_NS) {
            loggedAt = now;
            log.warn("{}: still ({} more failures of database work since the last line)", problem, failuresSinceLog.getAndSet(0));
        } else {
            failuresSinceLog.incrementAndGet();
        }
        if (first || now - evictedAt > EVICT_EVERY_NS) {
            evictedAt = now;
            replaceConnections();
        }
        return true;
    }

    /**
     * @return true when the failure is the database's (an {@link SQLException} among its causes) and
     *     it, or one of its causes, says the disk has no space left; a full disk elsewhere (a Space's,
     *     the staging directory's) is not the database's
     */
    public static boolean isDiskFull(Throwable failure) {
        boolean database = false;
        boolean noSpace = false;
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql) {
                database = true;
                noSpace |= DISK_FULL_STATE.equals(sql.getSQLState());
            }
            noSpace |= t.getMessage() != null && t.getMessage().contains(NO_SPACE);
        }
        return database && noSpace;
    }

    /**
     * True for a failure of database work (an {@link SQLException} among its causes). Once the disk
     * is full, or on a disk with no room, such a failure is that: H2 does not chain every one of them
     * to the write that failed ("database has been closed", a pool's "Connection is closed", a
     * rollback that failed and that Spring reports instead of what went wrong first).
     */
    static boolean databaseBroke(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /** For an H2 file: whether its disk has less room than the reserve would need (a database that broke there broke on it). */
    private boolean nearlyFull() {
        if (dir == null) {
            return false;
        }
        try {
            return Files.getFileStore(dir).getUsableSpace() < HEADROOM_BYTES;
        } catch (IOException e) {
            return false;
        }
    }

    /** While the disk is full: once it has room for the reserve again, makes it and lets the app carry on. */
    @Scheduled(fixedDelay = 1000)
    public void check() {
        if (problem == null) {
            return;
        }
        try {
            if (reserve != null) {
                if (!reserveMade() && Files.getFileStore(dir).getUsableSpace() < reserveBytes + HEADROOM_BYTES) {
                    return;
                }
                makeReserve();
            }
            replaceConnections();
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT 1");
            }
        } catch (IOException | SQLException | RuntimeException notYet) {
            return;
        }
        problem = null;
        log.info("the database's disk has room again: new runs are taken again ({} failures of database work since the last line)",
                failuresSinceLog.getAndSet(0));
    }

    private String describe() {
        return FULL + " (" + where() + ")";
    }

    /**
     * For a database of its own server (PostgreSQL): in the server's words, e.g. "the database's
     * disk is full (PostgreSQL: could not extend file "base/16384/16397": No space left on device)";
     * the server's text is in its own language, the SQLSTATE (53100) is what told.
     */
    private static String describe(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql && DISK_FULL_STATE.equals(sql.getSQLState()) && sql.getMessage() != null) {
                String text = sql.getMessage().lines().findFirst().orElse("").strip();
                return FULL + " (the database server says: " + (text.length() > 200 ? text.substring(0, 200) + "…" : text)
                        + "; SQLSTATE " + DISK_FULL_STATE + ")";
            }
        }
        return FULL + " (" + NO_SPACE + ")";
    }

    /** "No space left on device in /srv/data". */
    private String where() {
        return NO_SPACE + (dir == null ? "" : " in " + dir);
    }

    /** Connections on a database H2 closed go; the next ones open it anew. */
    private void replaceConnections() {
        if (dataSource instanceof HikariDataSource pool) {
            HikariPoolMXBean bean = pool.getHikariPoolMXBean();
            if (bean != null) {
                bean.softEvictConnections();
            }
        }
    }

    private boolean reserveMade() throws IOException {
        return Files.isRegularFile(reserve) && Files.size(reserve) == reserveBytes;
    }

    /** Writes the reserve's bytes for real (a sparse file would keep no room). */
    private void makeReserve() throws IOException {
        if (reserveMade()) {
            return;
        }
        Files.createDirectories(dir);
        Path partial = dir.resolve("disk-reserve.partial");
        try (FileChannel out = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 16);
            for (long written = 0; written < reserveBytes; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), reserveBytes - written));
                written += out.write(zeros);
            }
            out.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        Files.move(partial, reserve, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Gives the reserve's room back, leaving the reason in its first bytes: they are the reserve's
     * own, so writing them takes no room a full disk has not got (on a copy-on-write file system
     * where it would, the reserve is deleted instead). The mark stays until the disk has room for
     * the reserve again; if the app stops before that, the next start finds it
     * ({@link #fullWhenLastStopped()}) and names the disk in the end of the runs left RUNNING.
     */
    private void freeReserve() {
        if (reserve == null || !Files.isRegularFile(reserve)) {
            // None to give back: the disk had no room for it at start.
            return;
        }
        byte[] mark = (USED_MARK + "\n" + where() + "\n" + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        if (mark.length < reserveBytes) {
            try (FileChannel out = FileChannel.open(reserve, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(mark), 0);
                out.truncate(mark.length);
                out.force(true);
                return;
            } catch (IOException e) {
                log.warn("could not mark the reserve {} as used ({}): deleting it; the next start will not know the disk was full",
                        reserve, e.toString());
            }
        }
        try {
            Files.deleteIfExists(reserve);
        } catch (IOException e) {
            log.warn("could not give back the reserve {}: {}", reserve, e.toString());
        }
    }

    /** The reason {@link #freeReserve} left in the reserve, as the next start says it; null when the reserve holds none. */
    private String readUsedMark() {
        try {
            if (!Files.isRegularFile(reserve) || Files.size(reserve) >= reserveBytes || Files.size(reserve) > 4096) {
                return null;
            }
            List<String> lines = Files.readAllLines(reserve, StandardCharsets.UTF_8);
            if (lines.size() != 3 || !lines.get(0).equals(USED_MARK)) {
                return null;
            }
            return lines.get(1) + ", since " + shown(lines.get(2));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** "2026-12-03 15:43:02 UTC" from an ISO instant; the text as it is if it is none. */
    private static String shown(String instant) {
        try {
            return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC).format(Instant.parse(instant));
        } catch (RuntimeException e) {
            return instant;
        }
    }
}
