package dev.spacebench.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While open, the first Ctrl-C (SIGINT) or SIGTERM asks for the run (or the start-up before it)
 * to be cancelled instead of ending the JVM: the run then stops at its next iteration, deletes its
 * Space, and the command still writes its files and exits 2; a start-up stops at its next bean and
 * the command exits 2. A second signal ends the JVM at once as usual.
 *
 * <p>Signals rather than a shutdown hook, because by the time shutdown hooks run H2 has closed
 * the database and the run could no longer record how it ended.
 */
final class CancelOnSignal implements AutoCloseable {

    private static final String[] SIGNALS = {"INT", "TERM"};

    private final Map<Signal, SignalHandler> previous = new HashMap<>();

    /**
     * @param what what is cancelled, for the line printed, e.g. {@code run 7 (it keeps its samples)}
     * @param cancel what asks for the cancel; runs on a thread of its own
     */
    CancelOnSignal(PrintStream stderr, String what, Runnable cancel) {
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            try {
                previous.put(signal, Signal.handle(signal, s -> {
                    restore();
                    stderr.println();
                    stderr.println("bench: cancelling " + what + "; press Ctrl-C again to quit at once");
                    new Thread(cancel, "bench-cancel").start();
                }));
            } catch (IllegalArgumentException e) {
                // The JVM was started with this signal reserved (e.g. -Xrs); it keeps its default.
            }
        }
    }

    private synchronized void restore() {
        previous.forEach(Signal::handle);
        previous.clear();
    }

    @Override
    public void close() {
        restore();
    }
}
