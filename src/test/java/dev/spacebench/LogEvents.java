package dev.spacebench;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.slf4j.LoggerFactory;

/**
 * Every log event of this JVM while open, as "LEVEL logger message" lines: through SLF4J (logback)
 * and through java.util.logging, as Netty logs through whichever it finds.
 */
public final class LogEvents implements AutoCloseable {

    private final ListAppender<ILoggingEvent> logback = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final List<String> jul = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (jul) {
                jul.add(record.getLevel() + " " + record.getLoggerName() + " " + record.getMessage());
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    public LogEvents() {
        logback.start();
        root.addAppender(logback);
        java.util.logging.Logger.getLogger("").addHandler(handler);
    }

    /** The events so far; a stack trace's first line follows its event's. */
    public List<String> lines() {
        List<String> events;
        synchronized (jul) {
            events = new ArrayList<>(jul);
        }
        for (ILoggingEvent e : List.copyOf(logback.list)) {
            events.add(e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage());
            if (e.getThrowableProxy() != null) {
                events.add("\tstack trace: " + e.getThrowableProxy().getClassName());
            }
        }
        return events;
    }

    @Override
    public void close() {
        root.detachAppender(logback);
        java.util.logging.Logger.getLogger("").removeHandler(handler);
    }
}
