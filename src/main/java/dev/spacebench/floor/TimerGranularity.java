package dev.spacebench.floor;

import java.util.Arrays;

/**
 * The resolution of {@link System#nanoTime()}: the smallest positive step between two
 * consecutive reads. No duration Spacebench publishes is finer than this, and one read costs
 * about this much too, so it is the floor under every timing.
 */
public final class TimerGranularity {

    private TimerGranularity() {}

    /**
     * @param reads consecutive reads of the clock, at least 2
     * @return the positive differences between consecutive reads in ns, in read order; reads
     *     that returned the same value contribute nothing, so there may be fewer than reads − 1
     * @throws IllegalArgumentException if reads &lt; 2
     */
    public static long[] steps(int reads) {
        if (reads < 2) {
            throw new IllegalArgumentException("reads must be at least 2, was " + reads);
        }
        // Read into an array first, so the loop between reads is as short as it can be.
        long[] times = new long[reads];
        for (int i = 0; i < reads; i++) {
            times[i] = System.nanoTime();
        }
        long[] steps = new long[reads - 1];
        int count = 0;
        for (int i = 1; i < reads; i++) {
            long step = times[i] - times[i - 1];
            if (step > 0) {
                steps[count++] = step;
            }
        }
        return Arrays.copyOf(steps, count);
    }

    /**
     * @return the smallest positive step in ns
     * @throws IllegalStateException if the clock never moved during the reads
     */
    public static long smallestStep(int reads) {
        return Arrays.stream(steps(reads)).min()
                .orElseThrow(() -> new IllegalStateException("System.nanoTime did not move in " + reads + " reads"));
    }
}
