package dev.spacebench.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/** The plans a person picks by name: on the dashboard's form and as {@code bench --plan NAME}. */
public enum PlanPreset {
    /** {@link Plans#quick()}: a first look in seconds. */
    QUICK("quick", "quick", Plans::quick),
    /** {@link Plans#published()}: the published method, a few minutes. */
    PUBLISHED("published", "published method", Plans::published);

    private final String id;
    private final String label;
    private final Supplier<Plan> plan;

    PlanPreset(String id, String label, Supplier<Plan> plan) {
        this.id = id;
        this.label = label;
        this.plan = plan;
    }

    /** The name in forms and on the command line, e.g. "quick". */
    public String id() {
        return id;
    }

    /** How the form names it, e.g. "published method". */
    public String label() {
        return label;
    }

    /** The complete plan (no nulls inside). */
    public Plan plan() {
        return plan.get();
    }

    /** By {@link #id()}, case-insensitive. */
    public static Optional<PlanPreset> byId(String id) {
        return id == null ? Optional.empty()
                : Arrays.stream(values()).filter(p -> p.id.equals(id.strip().toLowerCase(Locale.ROOT))).findFirst();
    }
}
