package dev.spacebench.measure;

import dev.spacebench.metric.ExecRoundTrip;
import dev.spacebench.metric.FloorMetric;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.plan.FloorPlan;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order an interleaved plan's loops run in: every series (each exec metric, each floor loop)
 * is cut into the same number of blocks, and each round runs one block of every series, the
 * series in a seeded random order, so that drift on the host lands on every series alike and
 * block i of one series can be paired with block i of another ({@link dev.spacebench.stats.PairedRatio}).
 * A series' warm-ups run right before its first block. Pure: no clock, no I/O.
 *
 * <p>The order comes from one {@code java.util.Random(seed)} shuffling the series list afresh each
 * round with {@link Collections#shuffle(List, java.util.Random)}, both specified by the JDK, so a
 * seed gives the same order on every JVM.
 *
 * @param slots every block in the order it runs
 * @param blocks blocks per series
 * @param seed what the order was drawn from
 */
public record BlockSchedule(List<Slot> slots, int blocks, long seed) {

    /**
     * One series measured in an interleaved run.
     *
     * @param id the metric id, e.g. {@code exec.true} or {@code floor.spawn.true}
     * @param n measured iterations in all
     * @param warmups warm-ups, all before its first block
     */
    public record Series(String id, int n, int warmups) {
    }

    /**
     * One block of one series.
     *
     * @param series the series' metric id
     * @param block 1..{@link #blocks()}
     * @param firstIteration the 1-based measured iteration it starts at
     * @param count measured iterations in it (at least 1)
     * @param warmups warm-ups to run before it: the series' warm-ups for block 1, else 0
     */
    public record Slot(String series, int block, int firstIteration, int count, int warmups) {
    }

    /**
     * The blocks of a plan's interleaved part: each exec metric (n = exec n) and, when the floor is
     * on, each floor loop but the timer's single reading (n = floor n), in ⌈exec n / blockSize⌉
     * blocks.
     *
     * @param plan a valid, complete plan with a seed ({@link Plan#seed()} not null)
     */
    public static BlockSchedule of(Plan plan) {
        return of(series(plan), blocks(plan), plan.seed());
    }

    /** ⌈exec n / blockSize⌉: the blocks every series of the plan gets. */
    public static int blocks(Plan plan) {
        int n = plan.exec().n();
        int size = plan.blockSize();
        return (n + size - 1) / size;
    }

    /** The series an interleaved plan measures in blocks, exec metrics first, in plan order. */
    public static List<Series> series(Plan plan) {
        List<Series> series = new ArrayList<>();
        for (String name : plan.exec().metrics()) {
            series.add(new Series(ExecRoundTrip.of(ExecMetric.fromWireName(name).orElseThrow()).id(), plan.exec().n(),
                    plan.exec().warmups()));
        }
        FloorPlan floor = plan.floor();
        if (floor != null && floor.enabled()) {
            for (FloorMetric metric : FloorMetric.values()) {
                if (metric != FloorMetric.TIMER) {
                    series.add(new Series(metric.id(), floor.n(), floor.warmups()));
                }
            }
        }
        return series;
    }

    /**
     * Block b (1-based) of a series of n iterations in k blocks holds iterations ⌊(b−1)·n/k⌋ + 1
     * to ⌊b·n/k⌋: sizes differ by at most one.
     *
     * @throws IllegalArgumentException if blocks &lt; 1 or a series has fewer iterations than blocks
     */
    public static BlockSchedule of(List<Series> series, int blocks, long seed) {
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks must be at least 1, was " + blocks);
        }
        for (Series s : series) {
            if (s.n() < blocks) {
                throw new IllegalArgumentException(s.id() + " has " + s.n() + " iterations, fewer than its " + blocks + " blocks");
            }
        }
        Random random = new Random(seed);
        List<Series> round = new ArrayList<>(series);
        List<Slot> slots = new ArrayList<>(series.size() * blocks);
        for (int b = 1; b <= blocks; b++) {
            Collections.shuffle(round, random);
            for (Series s : round) {
                int first = (int) ((long) (b - 1) * s.n() / blocks) + 1;
                int last = (int) ((long) b * s.n() / blocks);
                slots.add(new Slot(s.id(), b, first, last - first + 1, b == 1 ? s.warmups() : 0));
            }
        }
        return new BlockSchedule(List.copyOf(slots), blocks, seed);
    }
}
