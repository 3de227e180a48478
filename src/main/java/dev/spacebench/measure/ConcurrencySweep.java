package dev.spacebench.measure;

import dev.spacebench.channel.AgentChannels;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The concurrency sweep (issue 13): its levels in turn, each a {@link SweepLevel} that makes that
 * many Spaces at once, keeps them busy together and deletes them all before the next level.
 * Runs after the single-Space loops, once their Space is gone, so that level L has L Spaces.
 */
public final class ConcurrencySweep {

    /** What every level needs to make, reach and report on its Spaces. */
    record Setup(Spaces spaces, AgentChannels channels, SpaceSpec spec, Duration readyTimeout, Path staging,
                 MeasureListener listener) {}

    private final Setup setup;

    /**
     * @param staging an existing host directory; each Space of a level gets its own directory in it
     * @param listener called from the calling thread only (the Spaces' threads hand their samples over)
     */
    public ConcurrencySweep(Spaces spaces, AgentChannels channels, SpaceSpec spec, Duration readyTimeout, Path staging,
                            MeasureListener listener) {
        this.setup = new Setup(spaces, channels, spec, readyTimeout, staging, listener);
    }

    /**
     * Runs every level of the plan's sweep; nothing when it has none. Every Space of a level is
     * deleted before this returns or throws.
     *
     * @throws CancelledException when the listener asks to stop (polled every 100 ms, also mid-level)
     * @throws SpaceException when a Space of a level could not be created
     * @throws SpaceLostException when a Space's agent stops answering or a disk is full
     * @throws AbortedException after {@link Measurement#MAX_CONSECUTIVE_FAILURES} failures in a row in one Space
     */
    public void run(Plan plan) throws SpaceException {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return;
        }
        long total = Measurement.progressUnits(plan);
        long done = total - units(plan);
        for (int level : sweep.levels()) {
            if (setup.listener().cancelRequested()) {
                throw new CancelledException();
            }
            done = new SweepLevel(setup, plan, level, done, total).run();
        }
    }

    /**
     * The sweep's progress units: per level of L Spaces, L × (metrics × (n + exec warm-ups) + file
     * iterations × {@link Measurement#fileIterationUnits(long)}).
     */
    public static long units(Plan plan) {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return 0;
        }
        long perSpace = (long) sweep.metrics().size() * (sweep.n() + plan.exec().warmups());
        if (sweep.fileBytes() != null) {
            perSpace += (long) (sweep.fileN() + plan.files().warmups()) * Measurement.fileIterationUnits(sweep.fileBytes());
        }
        long spaces = sweep.levels().stream().mapToLong(Integer::longValue).sum();
        return spaces * perSpace;
    }
}
