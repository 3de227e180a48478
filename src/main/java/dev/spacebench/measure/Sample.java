package dev.spacebench.measure;

/**
 * One timed iteration.
 *
 * @param metric e.g. {@code exec.true} or {@code file.upload.4MiB}
 * @param iteration 1-based within its phase
 * @param phase warm-up or measured
 * @param ns round-trip time in ns, from {@code System.nanoTime}: from the client call to its
 *     verified reply (for a failure: to the moment it failed)
 * @param bytes bytes moved (0 for exec metrics)
 * @param ok whether the round trip succeeded and verified
 * @param error why it failed; null when ok
 * @param agentNs the agent's own time inside {@code ns}, in ns (exec: spawn to reap of the command;
 *     files: its receive, hash and rename, or read, hash and send); null where it reports none
 * @param level a sweep's level (Spaces busy at once); null outside a sweep
 * @param spaceIndex which of the level's Spaces took it, 1..level; null outside a sweep
 * @param block an interleaved run's block of this series it was taken in, 1..blocks (warm-ups: 1);
 *     null in a sequential run and outside the blocks
 * @param seq its place in the run's interleaved part, 1, 2, … across every series in the order
 *     taken (warm-ups included); null where block is
 */
public record Sample(String metric, int iteration, Phase phase, long ns, long bytes, boolean ok, String error, Long agentNs,
                     Integer level, Integer spaceIndex, Integer block, Long seq) {

    /** A sample outside an interleaved run's blocks. */
    public Sample(String metric, int iteration, Phase phase, long ns, long bytes, boolean ok, String error, Long agentNs,
                  Integer level, Integer spaceIndex) {
        this(metric, iteration, phase, ns, bytes, ok, error, agentNs, level, spaceIndex, null, null);
    }

    /** This sample as taken in {@code block}, {@code seq}-th of the interleaved part. */
    public Sample inBlock(int block, long seq) {
        return new Sample(metric, iteration, phase, ns, bytes, ok, error, agentNs, level, spaceIndex, block, seq);
    }

    /** A sample outside a sweep. */
    public Sample(String metric, int iteration, Phase phase, long ns, long bytes, boolean ok, String error, Long agentNs) {
        this(metric, iteration, phase, ns, bytes, ok, error, agentNs, null, null);
    }

    /** A sample without the agent's own time. */
    public Sample(String metric, int iteration, Phase phase, long ns, long bytes, boolean ok, String error) {
        this(metric, iteration, phase, ns, bytes, ok, error, null);
    }
}
