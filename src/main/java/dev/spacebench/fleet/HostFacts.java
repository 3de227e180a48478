package dev.spacebench.fleet;

import dev.spacebench.environment.SystemFacts;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a testbed is, as its worker registers it: CPU model, cores, memory in bytes, OS, kernel,
 * architecture, and whether KVM is usable here (/dev/kvm readable and writable by this process).
 */
public record HostFacts(String cpuModel, int cores, long memoryBytes, String os, String kernel, String arch, boolean kvm) {

    /** Reads this machine's facts. Never throws. */
    public static HostFacts read() {
        SystemFacts facts = SystemFacts.read();
        Path kvm = Path.of("/dev/kvm");
        return new HostFacts(facts.cpuModel(), facts.cpuCount(), facts.memoryBytes(), facts.os(), facts.kernel(), facts.arch(),
                Files.isReadable(kvm) && Files.isWritable(kvm));
    }
}
