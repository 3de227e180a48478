package dev.spacebench.plan;

import java.util.List;

/**
 * The concurrency sweep (issue 13), off unless a plan asks for it. At each level the run creates
 * that many Spaces of its kind and shape at once, waits until all answer a Ping, runs one serial
 * exec loop per Space (all started together) for each metric, optionally moves one file of
 * {@code fileBytes} up and down in every Space at once, and deletes them all.
 *
 * @param levels how many Spaces are busy at once, ascending, each once, 1 to
 *     {@code spacebench.plan.max-concurrency}; default [1, 2, 4, 8]
 * @param metrics exec metric wire names as in {@link ExecPlan#metrics()}; default ["sh_c"]
 * @param n measured iterations per metric in each Space (a level of L Spaces pools L × n); default 200
 * @param fileBytes a file size in bytes every Space uploads and downloads {@code fileN} times at once; null: none
 * @param fileN measured transfers per Space at {@code fileBytes}; default 5
 */
public record ConcurrencyPlan(List<Integer> levels, List<String> metrics, Integer n, Long fileBytes, Integer fileN) {

    public static final List<Integer> DEFAULT_LEVELS = List.of(1, 2, 4, 8);
    public static final List<String> DEFAULT_METRICS = List.of("sh_c");
    public static final int DEFAULT_N = 200;
    public static final int DEFAULT_FILE_N = 5;

    /**
     * {@link #metrics()} typed, in its order, for a validated plan.
     *
     * @throws IllegalStateException when a name is not an {@link ExecMetric}'s (the plan skipped validation)
     */
    public List<ExecMetric> commands() {
        return ExecMetric.parse(metrics);
    }
}
