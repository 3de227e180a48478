package dev.spacebench.space;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a Space's provider knows about the Space, typed where the page reasons about it, for the
 * Environment table and the Method section. Stored as {@link #toMap()} (the map stored runs
 * already hold) and read back with {@link #fromMap(Map)}.
 *
 * @param isolation what separates the agent from the host, e.g. "bubblewrap: own user, pid… namespaces"
 * @param transport how the host's gRPC calls reach the agent; null in runs stored before it was recorded
 * @param network the network as the provider describes it, e.g. "loopback TCP 127.0.0.1:40123"
 * @param launchMechanism how the agent's JVM starts processes, as the agent reports it; null
 *     until the agent has answered its Info call
 * @param shapeAsked the CPUs and memory the run asked for, e.g. "cpus 2, memory 512 MiB"
 * @param shapeEnforced the limits that were applied, e.g. "memory limit 512 MiB (cgroup v2 …)" or "none"
 * @param shapeNotEnforced asked limits that could not be applied, and why; null when none
 * @param bulkLane whether the host and the agent share a bulk directory files move through; null in
 *     runs stored before it was recorded
 * @param details the kind's own facts in the provider's order (pid, directory, container, qemu pid…)
 */
public record SpaceFacts(String isolation, Transport transport, String network, String launchMechanism,
                         String shapeAsked, String shapeEnforced, String shapeNotEnforced, BulkLane bulkLane,
                         Map<String, String> details) {

    /**
     * The Space's bulk lane, stored as the fact "bulk lane" (its text, after the kind's own details).
     *
     * @param present true when files at or above the plan's threshold move through a shared directory
     * @param text the stored fact: {@link #NONE}'s text, or the directory (with a note, for attach)
     */
    public record BulkLane(boolean present, String text) {

        /** No bulk lane: every file goes through the gRPC stream. */
        public static final BulkLane NONE = new BulkLane(false, "none: every file goes through the stream");

        /** A bulk lane through {@code dir}, e.g. "/tmp/s/bulk" or "/tmp/s/bulk (checked: …)". */
        public static BulkLane at(Path dir, String note) {
            return new BulkLane(true, note == null ? dir.toString() : dir + " (" + note + ")");
        }

        /** The stored fact read back: every text this app writes without a lane starts with "none". */
        static BulkLane fromStored(String text) {
            return text == null ? null : new BulkLane(!text.startsWith("none"), text);
        }
    }

    /** How the host reaches the agent. */
    public enum Transport {
        /** TCP to 127.0.0.1, the same transport as the bare gRPC floor. */
        LOOPBACK_TCP,
        /** TCP to a port the VM's user network forwards to the guest. */
        FORWARDED_TCP,
        /** A unix domain socket: not the transport of the bare gRPC floor. */
        UNIX_SOCKET
    }

    private static final String ISOLATION = "isolation";
    private static final String TRANSPORT = "transport";
    private static final String NETWORK = "network";
    private static final String LAUNCH_MECHANISM = "launch mechanism";
    private static final String SHAPE_ASKED = "shape asked";
    private static final String SHAPE_ENFORCED = "shape enforced";
    private static final String SHAPE_NOT_ENFORCED = "shape not enforced";
    private static final String BULK_LANE = "bulk lane";

    public SpaceFacts {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details == null ? Map.of() : details));
    }

    public static Builder builder(String isolation) {
        return new Builder(isolation);
    }

    /** The same facts with the launch mechanism the agent reported. */
    public SpaceFacts withLaunchMechanism(String reported) {
        return new SpaceFacts(isolation, transport, network, reported, shapeAsked, shapeEnforced, shapeNotEnforced, bulkLane, details);
    }

    /** The same facts with {@code lane} as the bulk lane, unless the provider recorded one already. */
    public SpaceFacts withBulkLaneIfAbsent(BulkLane lane) {
        return bulkLane != null ? this
                : new SpaceFacts(isolation, transport, network, launchMechanism, shapeAsked, shapeEnforced, shapeNotEnforced, lane, details);
    }

    /** A fact by its stored name ("pid", "directory", "shape enforced"…), or null. */
    public String get(String name) {
        return toMap().get(name);
    }

    /** The stored form: one entry a fact, labelled as the Environment table shows them; nulls left out. */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        put(map, ISOLATION, isolation);
        put(map, NETWORK, network);
        put(map, TRANSPORT, transport == null ? null : transport.name());
        put(map, LAUNCH_MECHANISM, launchMechanism);
        put(map, SHAPE_ASKED, shapeAsked);
        put(map, SHAPE_ENFORCED, shapeEnforced);
        put(map, SHAPE_NOT_ENFORCED, shapeNotEnforced);
        map.putAll(details);
        put(map, BULK_LANE, bulkLane == null ? null : bulkLane.text());
        return map;
    }

    /**
     * Reads the stored form back; what is not one of the typed facts becomes a detail.
     *
     * @param stored as {@link #toMap()} wrote it, or as runs stored before this record wrote it
     *     (no "transport": it is then null)
     */
    public static SpaceFacts fromMap(Map<String, String> stored) {
        Map<String, String> details = new LinkedHashMap<>(stored);
        String transport = details.remove(TRANSPORT);
        return new SpaceFacts(details.remove(ISOLATION), transport == null ? null : Transport.valueOf(transport),
                details.remove(NETWORK), details.remove(LAUNCH_MECHANISM), details.remove(SHAPE_ASKED),
                details.remove(SHAPE_ENFORCED), details.remove(SHAPE_NOT_ENFORCED), BulkLane.fromStored(details.remove(BULK_LANE)), details);
    }

    private static void put(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    /** Collects a provider's facts as it learns them. */
    public static final class Builder {
        private final String isolation;
        private Transport transport;
        private String network;
        private String shapeAsked;
        private String shapeEnforced;
        private String shapeNotEnforced;
        private BulkLane bulkLane;
        private final Map<String, String> details = new LinkedHashMap<>();

        private Builder(String isolation) {
            this.isolation = isolation;
        }

        /** @param description e.g. "loopback TCP 127.0.0.1:40123" */
        public Builder network(Transport transport, String description) {
            this.transport = transport;
            this.network = description;
            return this;
        }

        /** @param notEnforced null when every asked limit was applied */
        public Builder shape(String asked, String enforced, String notEnforced) {
            this.shapeAsked = asked;
            this.shapeEnforced = enforced;
            this.shapeNotEnforced = notEnforced;
            return this;
        }

        public Builder bulkLane(BulkLane lane) {
            this.bulkLane = lane;
            return this;
        }

        /** A fact of the kind's own, shown as "Space {name}". */
        public Builder detail(String name, String value) {
            details.put(name, value);
            return this;
        }

        /** A detail set so far, or null. */
        public String detail(String name) {
            return details.get(name);
        }

        public SpaceFacts build() {
            return new SpaceFacts(isolation, transport, network, null, shapeAsked, shapeEnforced, shapeNotEnforced, bulkLane, details);
        }
    }
}
