package dev.spacebench.baseline;

/** Where a baseline's figures come from. */
public enum BaselineSource {
    /** A run in this database: raw samples available. */
    RUN,
    /** A result.json imported from elsewhere: summary figures only. */
    IMPORTED,
    /** Figures published by someone else: summary only, no raw samples. */
    PUBLISHED;

    public boolean hasSamples() {
        return this == RUN;
    }
}
