package dev.spacebench.agent;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The agent's log: one line per event on stderr, {@code HH:mm:ss.SSS LEVEL logger: message: cause},
 * never a stack trace. gRPC logs through java.util.logging, whose default prints a two-line header
 * and the whole stack for an error a client caused (e.g. a message over the size limit, which the
 * client already gets as RESOURCE_EXHAUSTED).
 */
final class AgentLogging {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private AgentLogging() {}

    /** Replaces java.util.logging's root handlers with the one-line one, at INFO. */
    static void install() {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(new OneLine());
        handler.setLevel(Level.INFO);
        root.addHandler(handler);
        root.setLevel(Level.INFO);
    }

    static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder()
                    .append(LocalTime.now().format(TIME)).append(' ')
                    .append(record.getLevel().getName()).append(' ')
                    .append(shortName(record.getLoggerName())).append(": ")
                    .append(formatMessage(record));
            for (Throwable cause = record.getThrown(); cause != null; cause = cause.getCause()) {
                line.append(": ").append(cause);
                if (cause.getCause() == cause) {
                    break;
                }
            }
            // One event, one line, whatever the message holds.
            return line.toString().replace('\n', ' ').replace('\r', ' ') + System.lineSeparator();
        }

        private static String shortName(String logger) {
            if (logger == null) {
                return "agent";
            }
            int dot = logger.lastIndexOf('.');
            return dot < 0 ? logger : logger.substring(dot + 1);
        }
    }
}
