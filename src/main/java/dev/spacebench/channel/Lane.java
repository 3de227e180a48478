package dev.spacebench.channel;

/** How a file travels between host and Space. */
public enum Lane {
    /** Chunks on the gRPC stream (WriteFile / ReadFile). */
    STREAM("stream"),
    /** A directory shared by host and Space; gRPC carries only the import/export calls. */
    BULK("bulk");

    private final String wireName;

    Lane(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
