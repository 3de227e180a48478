package dev.spacebench.space;

import java.time.Duration;
import java.util.Optional;

/**
 * Tries something until it works or a deadline passes: how the app waits for an agent that
 * should be there any moment (a fresh Space's first Ping, an attach target's connection).
 */
public final class Retry {

    /** One try: returns when it worked, throws when it did not (yet). */
    @FunctionalInterface
    public interface Attempt {
        void run() throws Exception;
    }

    private Retry() {}

    /**
     * Runs {@code attempt} at least once, then again after each {@code pause} while it throws and
     * {@code timeout} has not passed since the call.
     *
     * @return empty when an attempt worked; otherwise the last attempt's exception
     * @throws InterruptedException if interrupted during a pause; the thread's interrupt flag is set again
     */
    public static Optional<Exception> untilDeadline(Duration timeout, Duration pause, Attempt attempt) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                attempt.run();
                return Optional.empty();
            } catch (Exception e) {
                if (System.nanoTime() - deadline >= 0) {
                    return Optional.of(e);
                }
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw e;
            }
        }
    }
}
