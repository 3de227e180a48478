package dev.spacebench.compare;

import org.springframework.stereotype.Service;

/** Comparisons of two runs, or of a run with a baseline, for the page, the API and any other caller. */
@Service
public class CompareService {

    private final Sides sides;

    CompareService(Sides sides) {
        this.sides = sides;
    }

    /**
     * Resolves {@code runs=A,B} or {@code run=A&baseline=NAME} into a comparison; with a baseline,
     * the baseline is side a and the run side b, so the ratio reads "run / baseline".
     *
     * @throws dev.spacebench.request.InvalidRequestException naming the parameter when the query is not one of the two shapes
     * @throws dev.spacebench.run.RunNotFoundException if a run does not exist
     * @throws dev.spacebench.baseline.BaselineNotFoundException if the baseline does not exist
     */
    public Comparison compare(String runs, Long run, String baseline) {
        return ComparisonRequest.resolve(runs, run, baseline, sides);
    }

    /**
     * As {@link #compare(String, Long, String)}; {@code run=ID} alone (or with {@code entry=N}) compares a comparison
     * run's first entry (side a) with its second (or N-th, side b), blocks paired.
     *
     * @throws dev.spacebench.request.InvalidRequestException naming {@code entry} when it is out of range or given
     *     with another shape
     */
    public Comparison compare(String runs, Long run, String baseline, Integer entry) {
        return ComparisonRequest.resolve(runs, run, baseline, entry, sides);
    }
}
