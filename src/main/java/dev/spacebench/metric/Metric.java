package dev.spacebench.metric;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One thing a run measures, as stored in results and named in every output. The id is the stored
 * string ({@code exec.noop}, {@code file.upload.1MiB}, {@code space.ready}, {@code floor.grpc.noop});
 * {@link #parse} reads it back, {@code parse(id).get().id().equals(id)} for every id this model
 * writes. A new metric is a new case here, not an edit at every place that names one.
 */
public sealed interface Metric permits ExecRoundTrip, Transfer, SpaceLifecycle, FloorMetric, Sweep, Wrapped {

    /**
     * Page order: Space ready, exec round trips, uploads and downloads by file size (upload first),
     * Space delete, the floor, then the concurrency sweep by level.
     */
    Comparator<Metric> PAGE_ORDER = Comparator.comparingInt(Metric::group).thenComparingLong(Metric::rank);

    /** The stored id, e.g. {@code exec.sh_c}, {@code file.download.16MiB}. */
    String id();

    /** How pages name it in short, e.g. "sh -c true", "upload 1 MiB", "Space ready", "floor spawn true". */
    String label();

    /** The unit of its samples (every sample is a duration). */
    default Unit unit() {
        return Unit.NANOSECONDS;
    }

    Kind kind();

    /** The floor metrics it is read against, most direct first; empty when none (files, Space, the floor itself). */
    default List<FloorMetric> floors() {
        return List.of();
    }

    /** True for the floor measured on the host, which is not a figure of the Space. */
    default boolean isFloor() {
        return kind() == Kind.FLOOR;
    }

    /** Its group in {@link #PAGE_ORDER}: 0 Space ready … 4 floor, 5 sweep. */
    int group();

    /** Its place inside its group in {@link #PAGE_ORDER}. */
    long rank();

    /** @return the metric with this stored id; empty for null or an id no case writes */
    static Optional<Metric> parse(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Optional<Metric> found = ExecRoundTrip.fromId(id).map(Metric.class::cast);
        if (found.isEmpty()) {
            found = Transfer.parse(id).map(Metric.class::cast);
        }
        if (found.isEmpty()) {
            found = SpaceLifecycle.parse(id).map(Metric.class::cast);
        }
        if (found.isEmpty()) {
            found = FloorMetric.parse(id).map(Metric.class::cast);
        }
        if (found.isEmpty()) {
            found = Sweep.parse(id).map(Metric.class::cast);
        }
        if (found.isEmpty()) {
            found = Via.parse(id).map(Metric.class::cast);
        }
        if (found.isEmpty()) {
            found = InEntry.parse(id).map(Metric.class::cast);
        }
        return found;
    }

    /**
     * @return the metric with this stored id
     * @throws IllegalArgumentException naming the id when no case writes it
     */
    static Metric of(String id) {
        return parse(id).orElseThrow(() -> new IllegalArgumentException("not a metric id: " + id
                + " (expected exec.<noop|true|sh_c>, file.<upload|download>.<size>, space.<ready|delete>, floor.<name>, sweep.<level>.<one of these>, via.<channel>.<exec or file id> or entry.<2-4>.<exec, file, Space or via id>)"));
    }

    /** True when the id is in the floor's namespace (measured on the host, not in the Space), known to this version or not. */
    static boolean isFloor(String id) {
        return Kind.ofId(id) == Kind.FLOOR;
    }
}
