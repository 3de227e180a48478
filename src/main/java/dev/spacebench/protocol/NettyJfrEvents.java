package dev.spacebench.protocol;

/**
 * Turns off the JFR events of gRPC's shaded Netty (buffer and chunk allocation) in this JVM,
 * unless the user set the property.
 *
 * <p>Why: with them on, Netty's first pooled chunk (a connection's first read) loads its
 * {@code jdk.jfr.Event} subclasses, which starts the JDK's whole JFR event machinery on that
 * thread, recording or not. Measured on a 2-vCPU host (JDK 17, the agent's class-data archive in
 * use, a fresh agent per Space, client already warm): the first Ping into an agent took 144–188 ms
 * with the events on and 48–58 ms with them off; the same one-off cost lands on the host's first
 * channel. No run records Netty's events, so turning them off loses nothing.
 *
 * <p>Netty reads the property once, when {@code PlatformDependent} initialises, so this must run
 * before any Netty class loads: first thing in {@code main}.
 */
public final class NettyJfrEvents {

    /** The property under the name gRPC's shaded Netty reads (Netty's own is {@code io.netty.jfr.enabled}). */
    public static final String PROPERTY = "io.grpc.netty.shaded.io.netty.jfr.enabled";

    private NettyJfrEvents() {}

    /** Sets {@link #PROPERTY} to false where nobody set it. */
    public static void turnOff() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "false");
        }
    }
}
