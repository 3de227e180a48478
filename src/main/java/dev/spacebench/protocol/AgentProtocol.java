package dev.spacebench.protocol;

/**
 * The numbers and the readiness line both ends of the agent protocol (agent.proto) must agree on,
 * in one place: the agent, the host's channel, the bare floor and the plan limits read them here.
 */
public final class AgentProtocol {

    /** The prefix of the line an agent prints on stdout once it serves; what follows is the address to dial. */
    public static final String READY_PREFIX = "SPACEBENCH-AGENT READY ";
    /** Largest gRPC message either end accepts, in bytes: headroom over {@link #MAX_CHUNK_BYTES} for framing. */
    public static final int MAX_MESSAGE_BYTES = 8 << 20;
    /**
     * HTTP/2 flow-control window, in bytes. Netty's 1 MiB default equals one chunk, so a sender
     * would wait a window update per chunk; 16 MiB keeps several chunks in flight.
     */
    public static final int FLOW_CONTROL_WINDOW_BYTES = 16 << 20;
    /** Largest file chunk on the stream lane, in bytes: gRPC's default 4 MiB limit must hold a chunk plus framing. */
    public static final int MAX_CHUNK_BYTES = 3 << 20;
    /** File chunk on the stream lane when a request names none, in bytes. */
    public static final int DEFAULT_CHUNK_BYTES = 1 << 20;

    private AgentProtocol() {}
}
