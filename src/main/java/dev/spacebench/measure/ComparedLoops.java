package dev.spacebench.measure;

import dev.spacebench.metric.Metric;
import dev.spacebench.plan.ExecMetric;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A comparison run's loops (issue 29): every entry's Space measured in one interleaved schedule.
 * Each part is one channel of one entry ({@link Measurement#inEntry}); each part's exec metrics
 * are series of one {@link BlockSchedule} (and the floor's loops once, run by entry 1's agent
 * part), so block i of entry A and block i of entry B are taken in the same round, in a seeded
 * order, and drift on the host lands on both alike ({@code stats.PairedRatio} pairs them). First
 * every part's untimed warm-up, then the blocks, then each part's file loops in part order (files
 * are not interleaved, as in a run of one Space).
 *
 * <p>The schedule's series are, in order: part 1's exec metrics, part 2's, …, then the floor's
 * loops; with one part this is exactly {@link BlockSchedule#series(Plan)}, so a comparison's order
 * is the seed's as a single run's is.
 */
public final class ComparedLoops {

    private ComparedLoops() {}

    /** Where a series' blocks run. */
    private record Target(Measurement part, ExecMetric metric) {
    }

    /**
     * @param parts every entry's channels in entry order, entry 1's agent first; each already
     *     {@link Measurement#inEntry placed in its entry}
     * @param plan an interleaved plan with its seed
     * @param doneBefore progress units done before, of {@code total}
     * @return the progress units done after
     * @throws CancelledException, SpaceLostException, AbortedException as {@link Measurement#run(Plan)}
     */
    public static long run(List<Measurement> parts, Plan plan, long doneBefore, long total) {
        if (!plan.interleaved()) {
            throw new IllegalArgumentException("a comparison runs interleaved; the plan's order was " + plan.order());
        }
        long done = doneBefore;
        for (Measurement part : parts) {
            done = part.warm(plan, done, total);
        }
        BlockSchedule schedule = BlockSchedule.of(series(parts, plan), BlockSchedule.blocks(plan), plan.seed());
        Map<String, Target> targets = new HashMap<>();
        for (Measurement part : parts) {
            part.interleavedExec(plan, done).forEach((id, metric) -> targets.put(id, new Target(part, metric)));
            done = part.done();
        }
        Measurement floor = parts.stream().filter(Measurement::runsFloor).findFirst().orElse(null);
        long seq = 0;
        try {
            for (BlockSchedule.Slot slot : schedule.slots()) {
                Target target = targets.get(slot.series());
                Measurement part = target != null ? target.part() : FloorLoops.inBlocks(slot.series()) ? floor : null;
                if (part == null) {
                    // A metric its channel cannot do (reported skipped above), or a floor without entry 1's agent.
                    continue;
                }
                part.seqAfter(seq);
                if (target != null) {
                    part.execBlock(slot, target.metric(), plan, done);
                } else {
                    part.floorBlock(slot, plan, done);
                }
                done = part.done();
                seq = part.lastSeq();
            }
        } finally {
            if (floor != null) {
                floor.closeFloors();
            }
        }
        for (Measurement part : parts) {
            done = part.files(plan, done);
        }
        return done;
    }

    /** The schedule's series: each part's exec metrics by its own ids, in part order, then the floor's loops once. */
    static List<BlockSchedule.Series> series(List<Measurement> parts, Plan plan) {
        List<BlockSchedule.Series> series = new ArrayList<>();
        for (Measurement part : parts) {
            for (String name : plan.exec().metrics()) {
                ExecMetric metric = ExecMetric.fromWireName(name).orElseThrow();
                series.add(new BlockSchedule.Series(part.id(dev.spacebench.metric.ExecRoundTrip.of(metric)), plan.exec().n(),
                        plan.exec().warmups()));
            }
        }
        BlockSchedule.series(plan).stream().filter(s -> Metric.isFloor(s.id())).forEach(series::add);
        return series;
    }
}
