package dev.spacebench.run;

/** samples.csv's {@code channel} as docs/rest.md defines it, written out for the tests apart from the app's code. */
public final class ExpectedChannel {

    private ExpectedChannel() {}

    /** {@code agent} for {@code exec.*} and {@code file.*}, {@code C} for {@code via.C.*}, else empty. */
    public static String of(String metric) {
        if (metric.startsWith("via.")) {
            return metric.substring(4, metric.indexOf('.', 4));
        }
        return metric.startsWith("exec.") || metric.startsWith("file.") ? "agent" : "";
    }
}
