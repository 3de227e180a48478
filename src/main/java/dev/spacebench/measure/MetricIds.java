package dev.spacebench.measure;

import dev.spacebench.plan.FileSize;

/** Metric ids as stored and exported: {@code exec.<name>}, {@code file.upload.<size>}, {@code file.download.<size>}. */
public final class MetricIds {

    private MetricIds() {}

    public static String upload(long bytes) {
        return "file.upload." + FileSize.label(bytes);
    }

    public static String download(long bytes) {
        return "file.download." + FileSize.label(bytes);
    }

    public static final String FLOOR_TIMER = "floor.timer";
    public static final String FLOOR_SPAWN_TRUE = "floor.spawn.true";
    public static final String FLOOR_SPAWN_SH_C = "floor.spawn.sh_c";
    public static final String FLOOR_HYPERFINE_TRUE = "floor.hyperfine.true";
    public static final String FLOOR_GRPC_PING = "floor.grpc.noop";
}
