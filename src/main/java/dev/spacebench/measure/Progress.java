package dev.spacebench.measure;

/**
 * Where a run is.
 *
 * @param metric the metric being measured
 * @param phase its phase
 * @param iteration 1-based iteration within the phase just finished
 * @param iterations iterations in that phase
 * @param done progress units finished over the whole plan, warm-ups included (an exec iteration
 *     1, a file iteration 1 + 2 × bytes / 256 KiB: see {@link Measurement#progressUnits})
 * @param total progress units in the whole plan
 */
public record Progress(String metric, Phase phase, int iteration, int iterations, long done, long total) {

    /** Fraction of the plan's work finished, 0..1. */
    public double fraction() {
        return total == 0 ? 1 : (double) done / total;
    }
}
