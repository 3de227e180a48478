package dev.spacebench.space;

/**
 * The kinds of Space by name, as requests and stored runs spell them, and what each kind can do.
 * Each kind's package owns its provider and refers to its name here; the API and the checks above
 * them name a kind through this class, so {@code space} depends on none of its kind packages, and
 * code above {@code space} asks a kind's capability here instead of comparing its name.
 */
public final class SpaceKinds {

    public static final String PROCESS = "process";
    public static final String SANDBOX = "sandbox";
    public static final String CONTAINER = "container";
    public static final String VM = "vm";
    public static final String ATTACH = "attach";
    /** The OCI runtimes a container Space may ask for ({@code space.runtime}), the default first: runc, and gVisor's runsc. */
    public static final java.util.List<String> CONTAINER_RUNTIMES = java.util.List.of("runc", "runsc");

    private SpaceKinds() {}

    /**
     * Whether the kind reaches an agent already running that this app did not start ({@code attach}):
     * it creates nothing, so it takes a target, token and bulk directory and no shape, cannot be
     * swept, and a reader reproduces it over REST with their own agent. False for null and for a
     * kind this version does not know (say, in an imported result).
     */
    public static boolean reachesRunningAgent(String kind) {
        return ATTACH.equals(kind);
    }

    /** Whether the kind's Space is a virtual machine of its own ({@code vm}); the others share the host's kernel. */
    public static boolean isVirtualMachine(String kind) {
        return VM.equals(kind);
    }
}
