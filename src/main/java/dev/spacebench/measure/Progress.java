package dev.spacebench.measure;

/**
 * Where a run is.
 *
 * @param metric the metric being measured
 * @param phase its phase
 * @param iteration 1-based iteration within the phase just finished
 * @param iterations iterations in that phase
 * @param done iterations finished over the whole plan (warm-ups included)
 * @param total iterations in the whole plan (warm-ups included)
 */
public record Progress(String metric, Phase phase, int iteration, int iterations, long done, long total) {

    /** Fraction of the plan's iterations finished, 0..1. */
    public double fraction() {
        return total == 0 ? 1 : (double) done / total;
    }
}
