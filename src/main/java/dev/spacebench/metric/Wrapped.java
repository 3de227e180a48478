package dev.spacebench.metric;

import java.util.List;

/**
 * A metric that is another metric measured somewhere else than the default place: through another
 * channel ({@link Via}) or in another entry of a comparison run ({@link InEntry}). It is read like its
 * base: the same kind, the same floors, the same page group, so a channel's or an entry's figures sit
 * beside the base's and are compared with the same floor.
 */
public sealed interface Wrapped extends Metric permits Via, InEntry {

    /** The metric measured, e.g. {@code exec.true} for {@code via.ssh.exec.true}. */
    Metric base();

    @Override
    default Kind kind() {
        return base().kind();
    }

    @Override
    default List<FloorMetric> floors() {
        return base().floors();
    }

    /** In its base's group, after the base's own metrics of that group ({@link #rank()} orders them). */
    @Override
    default int group() {
        return base().group();
    }
}
