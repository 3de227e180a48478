package dev.spacebench.space;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What kind of Space to create, and its shape; for the {@code attach} kind also where its agent
 * already runs.
 *
 * @param kind the provider's name, e.g. {@code "process"}; null means the configured default
 * @param cpus CPUs asked for (null: no limit asked); what a kind can enforce is recorded per run
 * @param memoryMiB memory asked for in MiB (null: no limit asked)
 * @param target attach only: the running agent's address, {@code HOST:PORT} / {@code tcp:HOST:PORT}
 *     on a loopback address, or {@code unix:/path}; null for the other kinds
 * @param token attach only: the token that agent requires. It is stored with the run sealed by
 *     {@link AttachTokens} ({@link #forStorage()}), so a database reader cannot read it, and
 *     {@link #redacted()} hides it wherever a run is shown; null for the other kinds
 * @param bulkDir attach only, optional: the host path of the directory the agent uses as its bulk
 *     lane (the agent's {@code --bulk-dir}, seen from the host); null: every file goes through the
 *     stream
 * @param channels the channels the run measures the Space through, in order ({@link SpaceChannels}); null
 *     for the agent alone (what every run stored before channels means). Requests give it at their top
 *     level ({@code "channels"}), not inside {@code space}; it is kept here because the Space is made to serve them
 * @param runtime container only: the OCI runtime the engine runs it with, {@code runc} or {@code runsc} (gVisor); null
 *     for the kind's default ({@code runc})
 */
public record SpaceSpec(String kind, Double cpus, Long memoryMiB, String target, String token, String bulkDir,
                        List<String> channels, String runtime) {

    public SpaceSpec {
        channels = channels == null ? null : List.copyOf(channels);
    }

    /** A Space with its kind's default runtime. */
    public SpaceSpec(String kind, Double cpus, Long memoryMiB, String target, String token, String bulkDir, List<String> channels) {
        this(kind, cpus, memoryMiB, target, token, bulkDir, channels, null);
    }

    /** A Space measured through its agent alone. */
    public SpaceSpec(String kind, Double cpus, Long memoryMiB, String target, String token, String bulkDir) {
        this(kind, cpus, memoryMiB, target, token, bulkDir, null);
    }

    /** The most CPUs a request may ask for (more than 0 and at most this). */
    public static final double MAX_CPUS = 1024;
    /** The least and the most memory a request may ask for, in MiB. */
    public static final long MIN_MEMORY_MIB = 16;
    public static final long MAX_MEMORY_MIB = 1L << 24;

    /** A Space the app makes itself: kind and shape only. */
    public SpaceSpec(String kind, Double cpus, Long memoryMiB) {
        this(kind, cpus, memoryMiB, null, null, null);
    }

    public SpaceSpec withKind(String newKind) {
        return new SpaceSpec(newKind, cpus, memoryMiB, target, token, bulkDir, channels, runtime);
    }

    /** The same spec measured through {@code newChannels}; null or {@code ["agent"]}: the agent alone (stored as null). */
    public SpaceSpec withChannels(List<String> newChannels) {
        boolean agentOnly = newChannels == null || newChannels.equals(List.of(SpaceChannels.AGENT));
        return new SpaceSpec(kind, cpus, memoryMiB, target, token, bulkDir, agentOnly ? null : newChannels, runtime);
    }

    /** The channels to measure through, in order: {@code ["agent"]} when none were given. */
    public List<String> channelsOrDefault() {
        return channels == null || channels.isEmpty() ? List.of(SpaceChannels.AGENT) : channels;
    }

    /** What the Space must serve: {@link #channelsOrDefault()} and always the agent (the Space's readiness is its agent's). */
    public Set<String> served() {
        Set<String> served = new java.util.LinkedHashSet<>(channelsOrDefault());
        served.add(SpaceChannels.AGENT);
        return served;
    }

    /** The shape asked for, for a Space's facts: e.g. {@code cpus 1.5, memory 256 MiB}, or {@code none}. */
    public String describeShape() {
        List<String> parts = new ArrayList<>();
        if (cpus != null) {
            parts.add("cpus " + BigDecimal.valueOf(cpus).stripTrailingZeros().toPlainString());
        }
        if (memoryMiB != null) {
            parts.add("memory " + memoryMiB + " MiB");
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    /** This spec as a run stores it: the token sealed with a key only this JVM holds (see {@link AttachTokens}). */
    public SpaceSpec forStorage() {
        return token == null ? this : new SpaceSpec(kind, cpus, memoryMiB, target, AttachTokens.seal(token), bulkDir, channels, runtime);
    }

    /** This spec as runs are shown: the token replaced by {@code "(hidden)"} when there is one. */
    public SpaceSpec redacted() {
        return token == null ? this : new SpaceSpec(kind, cpus, memoryMiB, target, "(hidden)", bulkDir, channels, runtime);
    }
}
