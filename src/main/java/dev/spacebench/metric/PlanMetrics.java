package dev.spacebench.metric;

import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.FileSize;
import dev.spacebench.plan.Plan;
import java.util.ArrayList;
import java.util.List;

/**
 * The metrics a plan produces, worked out once: the loops measure them, results are computed for
 * them, and pages and outcomes list them, all from here. Lives in {@code metric} because
 * {@code plan} sits below everything and knows no metric.
 */
public final class PlanMetrics {

    /** Ready's three parts, in page order. */
    public static final List<SpaceLifecycle> READY_PARTS =
            List.of(SpaceLifecycle.READY_CREATE, SpaceLifecycle.READY_AGENT, SpaceLifecycle.READY_PING);

    private PlanMetrics() {}

    /**
     * One metric of the single-Space loops and the measured iterations the plan asks of it.
     *
     * @param metric an {@link ExecRoundTrip} or a {@link Transfer}
     * @param n measured iterations planned
     */
    public record Loop(Metric metric, int n) {
    }

    /** The plan's exec round trips, in the plan's order (a validated plan). */
    public static List<ExecRoundTrip> exec(Plan plan) {
        return plan.exec().commands().stream().map(ExecRoundTrip::of).toList();
    }

    /** The sweep's exec round trips, in its order (a validated plan). */
    public static List<ExecRoundTrip> exec(ConcurrencyPlan sweep) {
        return sweep.commands().stream().map(ExecRoundTrip::of).toList();
    }

    /** Upload then download of one file size. */
    public static List<Transfer> transfers(long bytes) {
        return List.of(Transfer.upload(bytes), Transfer.download(bytes));
    }

    /** The single-Space loops' metrics in the order they run: exec round trips, then upload and download by size. */
    public static List<Loop> loops(Plan plan) {
        List<Loop> loops = new ArrayList<>();
        for (ExecRoundTrip metric : exec(plan)) {
            loops.add(new Loop(metric, plan.exec().n()));
        }
        for (FileSize size : plan.files().sizes()) {
            for (Transfer transfer : transfers(size.bytes())) {
                loops.add(new Loop(transfer, size.n()));
            }
        }
        return loops;
    }

    /**
     * Every metric the plan can produce, in result order: Space ready and its parts, the exec round
     * trips, upload and download by size, Space delete, every floor metric, then a sweep's metrics
     * level by level (ready, exec, the file's upload and download, delete). A run that stopped early
     * has results for a prefix-like subset of these; a floor metric the host could not measure has none.
     */
    public static List<Metric> metrics(Plan plan) {
        List<Metric> metrics = new ArrayList<>();
        metrics.add(SpaceLifecycle.READY);
        metrics.addAll(READY_PARTS);
        for (Loop loop : loops(plan)) {
            metrics.add(loop.metric());
        }
        metrics.add(SpaceLifecycle.DELETE);
        metrics.addAll(List.of(FloorMetric.values()));
        metrics.addAll(sweep(plan.concurrency()));
        return metrics;
    }

    /** A sweep's metrics level by level (ready, exec, the file's upload and download, delete); empty for no sweep. */
    public static List<Sweep> sweep(ConcurrencyPlan sweep) {
        if (sweep == null) {
            return List.of();
        }
        List<Sweep> metrics = new ArrayList<>();
        for (int level : sweep.levels()) {
            metrics.add(new Sweep(SpaceLifecycle.READY, level));
            for (ExecRoundTrip exec : exec(sweep)) {
                metrics.add(new Sweep(exec, level));
            }
            if (sweep.fileBytes() != null) {
                for (Transfer transfer : transfers(sweep.fileBytes())) {
                    metrics.add(new Sweep(transfer, level));
                }
            }
            metrics.add(new Sweep(SpaceLifecycle.DELETE, level));
        }
        return metrics;
    }
}
