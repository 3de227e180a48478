package dev.spacebench.benchmark;

import java.time.Instant;
import java.util.List;

/**
 * A benchmark as the API and the pages show it.
 *
 * @param slug e.g. {@code command-round-trip-sandbox}
 * @param question the question the benchmark answers
 * @param summary one sentence answering it (the current run's headline unless given)
 * @param runId the run that answers it now
 * @param kind the current run's Space kind
 * @param machine e.g. "AMD EPYC × 2, 23.5 GiB"; "not recorded" when the run has no environment
 * @param headline e.g. "sh -c true p50 2.89 ms (n = 300)"
 * @param checked when the current run finished; {@code checkedText} as a UTC day
 * @param version the Spacebench version that measured the current run
 * @param history every run that answered it, newest (the current one) first
 */
public record BenchmarkView(String slug, String question, String summary, long runId, String kind, String machine,
                            String headline, Instant checked, String checkedText, String version, long n,
                            List<HistoryEntry> history) {

    /**
     * One run in a benchmark's history, with its headline metric's p50 and p99 in ns.
     *
     * @param metric the headline metric's label, e.g. "sh -c true"; null when the run measured none
     */
    public record HistoryEntry(long runId, Instant publishedAt, String checkedText, String version, String metric,
                               Long p50Ns, String p50Text, Long p99Ns, String p99Text, int n) {
    }
}
