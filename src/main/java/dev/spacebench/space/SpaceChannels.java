package dev.spacebench.space;

/**
 * Channels a Space may have to serve besides its agent, as requests name them: a kind that serves
 * one starts what it needs when the Space is made (an SSH server for {@link #SSH}).
 */
public final class SpaceChannels {

    /** The agent over gRPC: every Space serves it. */
    public static final String AGENT = "agent";
    /** A real OpenSSH server in the Space, key auth only ({@link SshAccess}). */
    public static final String SSH = "ssh";
    /** The container engine's own exec and cp ({@link ContainerExecAccess}): container Spaces only. */
    public static final String CONTAINER_EXEC = "container-exec";
    /** Every channel a request may name, in the order pages list them. */
    public static final java.util.List<String> KNOWN = java.util.List.of(AGENT, SSH, CONTAINER_EXEC);

    private SpaceChannels() {}
}
