package dev.spacebench.measure;

/** Whether a sample counts toward the figures. */
public enum Phase {
    /** Run before the measured iterations to warm caches and the JIT; kept, shown, never in the figures. */
    WARMUP("warmup"),
    MEASURED("measured");

    private final String wireName;

    Phase(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
