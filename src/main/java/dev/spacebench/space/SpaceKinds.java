package dev.spacebench.space;

/**
 * The kinds of Space by name, as requests and stored runs spell them. Each kind's package owns its
 * provider and refers to its name here; the API and the checks above them name a kind through
 * this class, so {@code space} depends on none of its kind packages.
 */
public final class SpaceKinds {

    public static final String PROCESS = "process";
    public static final String SANDBOX = "sandbox";
    public static final String CONTAINER = "container";
    public static final String VM = "vm";
    public static final String ATTACH = "attach";

    private SpaceKinds() {}
}
