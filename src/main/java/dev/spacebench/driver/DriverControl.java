package dev.spacebench.driver;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;

/**
 * The driver's side of its stdin after the job: one daemon thread blocked in {@code read}, which
 * costs the loops nothing until a byte comes. {@link DriverJob#CANCEL} sets the flag the loops poll
 * between iterations; {@link DriverJob#GO} releases a driver waiting before a measured loop. The
 * pipe's end (the worker died, even by SIGKILL, or closed it) halts this JVM at once: a driver never
 * outlives the process that started it.
 */
final class DriverControl {

    private final Semaphore go = new Semaphore(0);
    private volatile boolean cancelled;

    private DriverControl() {}

    static DriverControl start(InputStream in) {
        DriverControl control = new DriverControl();
        Thread reader = new Thread(() -> control.read(in), "driver-stdin");
        reader.setDaemon(true);
        reader.start();
        return control;
    }

    private void read(InputStream in) {
        try {
            int b;
            while ((b = in.read()) >= 0) {
                if (b == DriverJob.CANCEL) {
                    cancelled = true;
                    go.release();
                } else if (b == DriverJob.GO) {
                    go.release();
                }
            }
        } catch (IOException e) {
            // a broken pipe means the same as its end
        }
        // halt, not exit: no shutdown hook may keep a driver whose worker is gone alive
        Runtime.getRuntime().halt(DriverMain.PARENT_GONE);
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Blocks until the worker says go (or cancel: the loops then see the flag). */
    void awaitGo() {
        go.acquireUninterruptibly();
    }
}
