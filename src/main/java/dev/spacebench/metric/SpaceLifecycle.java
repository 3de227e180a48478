package dev.spacebench.metric;

import java.util.Arrays;
import java.util.Optional;

/** A Space's own lifecycle, once per Space: {@code space.ready}, {@code space.delete}. */
public enum SpaceLifecycle implements Metric {
    /** Create → first successful Ping. */
    READY("ready", "Space ready", "ready: create → first successful Ping", 0),
    /** Ready's first part: the rest of ready once the agent's start and the first Ping are taken out. */
    READY_CREATE("ready.create", "Space creation",
            "ready, part 1: create → the agent's process runs (a VM: boots), and the host learns it listens", 0),
    /** Ready's second part, as the agent reports it: its process's start (JVM boot included) → its server listening (10 ms resolution). */
    READY_AGENT("ready.agent", "agent start", "ready, part 2: the agent's process starts (its JVM boots) → it listens", 0),
    /** Ready's third part: the host learns the agent listens → the first successful Ping. */
    READY_PING("ready.ping", "first Ping", "ready, part 3: the agent listens → the first successful Ping", 0),
    /** Kill and remove everything. */
    DELETE("delete", "Space delete", "delete: kill and remove everything", 3);

    private final String name;
    private final String label;
    private final String description;
    private final int group;

    SpaceLifecycle(String name, String label, String description, int group) {
        this.name = name;
        this.label = label;
        this.description = description;
        this.group = group;
    }

    static Optional<SpaceLifecycle> parse(String id) {
        return Arrays.stream(values()).filter(m -> m.id().equals(id)).findFirst();
    }

    @Override
    public String id() {
        return "space." + name;
    }

    /** "Space ready", "Space delete". */
    @Override
    public String label() {
        return label;
    }

    /** The run page's row text, e.g. "ready: create → first successful Ping". */
    public String description() {
        return description;
    }

    @Override
    public Kind kind() {
        return Kind.SPACE;
    }

    @Override
    public int group() {
        return group;
    }

    @Override
    public long rank() {
        return ordinal();
    }
}
