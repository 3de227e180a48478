package dev.spacebench.environment;

import dev.spacebench.linux.LinuxFacts;
import java.util.List;

/**
 * Facts about the Linux system this JVM runs on ({@link LinuxFacts}, read from /proc and /etc),
 * with the virtualization the host's CPU flags show: the host's, or a Space's as its agent
 * reported them. Pure: no Spring, no caching; every call reads the files again. Unknown facts are
 * "unknown" or 0.
 *
 * @param jvmFlags the JVM's input arguments (see {@link #ownJvmFlags()}); null in runs stored
 *     before they were recorded
 * @param virtualization {@link Virtualization#ofHost(String)} of this system; null in runs stored
 *     before it was recorded, for an agent's view of its Space, and where cpuinfo has no flags
 */
public record SystemFacts(
        String os,
        String kernel,
        String arch,
        String cpuModel,
        int cpuCount,
        long memoryBytes,
        String hostname,
        String jvm,
        List<String> jvmFlags,
        String virtualization) {

    /** Reads the facts of the running system. Never throws: unreadable files give "unknown". */
    public static SystemFacts read() {
        String cpuinfo = LinuxFacts.cpuinfo();
        return new SystemFacts(LinuxFacts.os(), LinuxFacts.kernel(), LinuxFacts.arch(), LinuxFacts.cpuModel(cpuinfo),
                LinuxFacts.cpuCount(), LinuxFacts.memoryBytes(), LinuxFacts.hostname(), LinuxFacts.jvm(), LinuxFacts.ownJvmFlags(),
                Virtualization.ofHost(cpuinfo));
    }

    /** {@link LinuxFacts#ownJvmFlags()}. */
    public static List<String> ownJvmFlags() {
        return LinuxFacts.ownJvmFlags();
    }
}
