package dev.spacebench.floor;

import java.io.IOException;

/** Warm-ups, then measured trials: the loop every floor shares. */
final class Trials {

    private Trials() {}

    /** One trial; returns its duration in ns. */
    @FunctionalInterface
    interface Trial {
        long ns() throws IOException, InterruptedException;
    }

    /**
     * @param n measured trials, at least 1
     * @param warmups trials run first and dropped (JIT, page cache, connection set-up), at least 0
     * @return the n measured durations in ns, in the order they ran
     * @throws IllegalArgumentException if n &lt; 1 or warmups &lt; 0
     */
    static long[] run(int n, int warmups, Trial trial) throws IOException, InterruptedException {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        if (warmups < 0) {
            throw new IllegalArgumentException("warmups must be 0 or more, was " + warmups);
        }
        for (int i = 0; i < warmups; i++) {
            trial.ns();
        }
        long[] samples = new long[n];
        for (int i = 0; i < n; i++) {
            samples[i] = trial.ns();
        }
        return samples;
    }
}
