package dev.spacebench.run.sweep;

import dev.spacebench.channel.AgentChannels;
import dev.spacebench.measure.CancelledException;
import dev.spacebench.measure.MeasureListener;
import dev.spacebench.plan.ConcurrencyPlan;
import dev.spacebench.plan.Plan;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.Spaces;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The concurrency sweep (issue 13): its levels in turn, each a {@link SweepLevel} that makes that
 * many Spaces at once, has a measuring driver keep them busy together (issue 28: its loops run in
 * no JVM of the app's) and deletes them all before the next level. Runs after the single-Space
 * loops, once their Space is gone, so that level L has L Spaces.
 */
public final class ConcurrencySweep {

    /** What every level needs to make, reach and report on its Spaces, and where its driver runs. */
    record Setup(Spaces spaces, AgentChannels channels, SpaceSpec spec, Duration readyTimeout, Path staging,
                 MeasureListener listener, String driverCpus) {}

    private final Setup setup;

    /**
     * @param staging an existing host directory; each Space of a level gets its own directory in it
     * @param listener called from the calling thread only (the driver's frames are read on it)
     * @param driverCpus {@code spacebench.driver.cpus}: where the driver runs; null: not pinned
     */
    public ConcurrencySweep(Spaces spaces, AgentChannels channels, SpaceSpec spec, Duration readyTimeout, Path staging,
                            MeasureListener listener, String driverCpus) {
        this.setup = new Setup(spaces, channels, spec, readyTimeout, staging, listener, driverCpus);
    }

    /**
     * Runs every level of the plan's sweep; nothing when it has none. Every Space of a level is
     * deleted before this returns or throws.
     *
     * @throws CancelledException when the listener asks to stop
     * @throws SpaceException when a Space of a level could not be created
     * @throws dev.spacebench.measure.SpaceLostException when a Space's agent stops answering or a disk is full
     * @throws dev.spacebench.measure.AbortedException after too many failures in a row in one Space, or when the driver died
     * @throws IOException when the driver could not be started
     */
    public void run(Plan plan) throws SpaceException, IOException {
        ConcurrencyPlan sweep = plan.concurrency();
        if (sweep == null) {
            return;
        }
        for (int level : sweep.levels()) {
            if (setup.listener().cancelRequested()) {
                throw new CancelledException();
            }
            new SweepLevel(setup, plan, level).run();
        }
    }
}
