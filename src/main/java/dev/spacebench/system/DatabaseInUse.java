package dev.spacebench.system;

import java.sql.SQLException;
import java.util.List;

/**
 * H2's "Database may be already in use" (its error 90020): the database file is open in another
 * process, as an H2 file can be opened by one process at a time. The command line recognises it to
 * say so in one line instead of the start-up's stack trace.
 */
public final class DatabaseInUse {

    /** {@code org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1}; H2 is on the class path at run time only. */
    static final int H2_DATABASE_ALREADY_OPEN = 90020;

    /**
     * Arguments for a command's Spring start-up that leave its failure to the command: Spring's
     * own three reports of it (a warning, "Application run failed" with its stack, the failure
     * analysis) turned off, so that a database another process holds takes one line. The command
     * must then report any other failure with its stack trace itself.
     */
    public static final List<String> FAILURE_LEFT_TO_THE_COMMAND = List.of(
            "--logging.level.org.springframework.boot.SpringApplication=OFF",
            "--logging.level.org.springframework.context.annotation.AnnotationConfigApplicationContext=OFF",
            "--logging.level.org.springframework.boot.diagnostics.LoggingFailureAnalysisReporter=OFF");

    private DatabaseInUse() {
    }

    /** True when {@code failure} or one of its causes is H2 refusing a file another process holds. */
    public static boolean causedBy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                return true;
            }
        }
        return false;
    }
}
