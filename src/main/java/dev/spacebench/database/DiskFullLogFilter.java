package dev.spacebench.database;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * While the database's disk is full, every request, scheduled task and transaction that touches the
 * database fails, and Spring, Hibernate and the web layer each log it with a stack trace: measured,
 * 195,531 lines in 5 minutes. This filter hands each such line to {@link DatabaseDisk#noteFailure},
 * which says it once and then sums it up at most once a minute, and drops the line itself. Lines about
 * anything else pass untouched.
 */
final class DiskFullLogFilter extends TurboFilter {

    private final DatabaseDisk disk;

    DiskFullLogFilter(DatabaseDisk disk) {
        this.disk = disk;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || logger.getName().equals(DatabaseDisk.class.getName())) {
            return FilterReply.NEUTRAL;
        }
        Throwable failure = t;
        if (failure == null && params != null && params.length > 0 && params[params.length - 1] instanceof Throwable last) {
            failure = last;
        }
        // Any level: a stack trace at INFO is as many lines as one at ERROR.
        if (failure != null) {
            return disk.noteFailure(failure) ? FilterReply.DENY : FilterReply.NEUTRAL;
        }
        if (!level.isGreaterOrEqual(Level.WARN)) {
            return FilterReply.NEUTRAL;
        }
        // Hibernate's "SQL Error: 90098, SQLState: 90098" and its message, without the exception.
        if (disk.problem().isPresent() && format != null && logger.getName().startsWith("org.hibernate")) {
            StringBuilder text = new StringBuilder(format);
            if (params != null) {
                for (Object p : params) {
                    text.append(' ').append(p);
                }
            }
            String line = text.toString();
            if (line.contains(String.valueOf(DatabaseDisk.H2_DATABASE_CLOSED)) || line.contains("No space left on device")
                    || line.contains("The database has been closed")) {
                return FilterReply.DENY;
            }
        }
        return FilterReply.NEUTRAL;
    }
}
