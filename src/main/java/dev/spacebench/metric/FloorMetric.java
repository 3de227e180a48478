package dev.spacebench.metric;

import java.util.Arrays;
import java.util.Optional;

/** The floor: what the host does alone, without a Space, that a Space's figures are read against. */
public enum FloorMetric implements Metric {
    TIMER("timer", "System.nanoTime: smallest step seen", null),
    SPAWN_TRUE("spawn.true", "start true on the host (the agent's Exec code, in the measuring driver's JVM)", "starting true on the host"),
    SPAWN_SH_C("spawn.sh_c", "start sh -c true on the host (likewise)", "starting sh -c true on the host"),
    HYPERFINE_TRUE("hyperfine.true", "hyperfine -N true on the host", "hyperfine -N true"),
    GRPC_NOOP("grpc.noop", "bare gRPC ping to a server process of its own on the Space's transport: TCP loopback, or a unix "
            + "socket for the kinds reached through one (no Space, no token)", "a bare gRPC ping"),
    HYPERFINE_SH_C("hyperfine.sh_c", "hyperfine -N 'sh -c true' on the host", "hyperfine -N 'sh -c true'");

    static final String PREFIX = "floor.";

    private final String name;
    private final String description;
    private final String comparedAs;

    FloorMetric(String name, String description, String comparedAs) {
        this.name = name;
        this.description = description;
        this.comparedAs = comparedAs;
    }

    /** Whether this floor is hyperfine starting a program on the host (the exec floors). */
    public boolean isHyperfine() {
        return this == HYPERFINE_TRUE || this == HYPERFINE_SH_C;
    }

    static Optional<FloorMetric> parse(String id) {
        return Arrays.stream(values()).filter(m -> m.id().equals(id)).findFirst();
    }

    @Override
    public String id() {
        return PREFIX + name;
    }

    /** Short, for the dashboard: "floor spawn true". */
    @Override
    public String label() {
        return "floor " + name.replace('.', ' ');
    }

    /** What it measures, for the floor table and plot legends, e.g. "hyperfine -N true on the host". */
    public String description() {
        return description;
    }

    /**
     * What an exec figure is said to lie above, e.g. "starting true on the host"; null for the
     * timer, which no exec metric is read against.
     */
    public String comparedAs() {
        return comparedAs;
    }

    @Override
    public Kind kind() {
        return Kind.FLOOR;
    }

    @Override
    public int group() {
        return 4;
    }

    @Override
    public long rank() {
        return ordinal();
    }
}
