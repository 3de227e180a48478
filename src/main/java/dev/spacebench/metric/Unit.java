package dev.spacebench.metric;

/** The unit a metric's samples are stored in. */
public enum Unit {
    NANOSECONDS("ns");

    private final String symbol;

    Unit(String symbol) {
        this.symbol = symbol;
    }

    /** "ns". */
    public String symbol() {
        return symbol;
    }
}
