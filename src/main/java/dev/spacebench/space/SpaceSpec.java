package dev.spacebench.space;

/**
 * What kind of Space to create, and its shape.
 *
 * @param kind the provider's name, e.g. {@code "process"}; null means the configured default
 * @param cpus CPUs asked for (null: no limit asked); what a kind can enforce is recorded per run
 * @param memoryMiB memory asked for in MiB (null: no limit asked)
 */
public record SpaceSpec(String kind, Double cpus, Long memoryMiB) {

    public SpaceSpec withKind(String newKind) {
        return new SpaceSpec(newKind, cpus, memoryMiB);
    }
}
