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
}
