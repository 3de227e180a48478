package dev.spacebench.environment;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Facts about the Linux system this JVM runs on, read from /proc and /etc. Used both by the
 * agent (the Space's view of itself) and by the host (the machine the run ran on). Pure: no
 * Spring, no caching; every call reads the files again. Unknown facts are "unknown" or 0.
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

    // A flag such as -Dspring.datasource.password=… must not reach a page.
    private static final Pattern SECRET_FLAG = Pattern.compile("(?i)^(-D[^=]*(?:password|secret|token|key|credential)[^=]*=).*");

    /** Reads the facts of the running system. Never throws: unreadable files give "unknown". */
    public static SystemFacts read() {
        String cpuinfo = text(Path.of("/proc/cpuinfo"));
        return new SystemFacts(
                osName(),
                firstLine(Path.of("/proc/sys/kernel/osrelease")).orElse(System.getProperty("os.version")),
                System.getProperty("os.arch"),
                cpuModel(cpuinfo),
                Runtime.getRuntime().availableProcessors(),
                memTotalBytes(),
                readHostname(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                        + " (" + System.getProperty("java.vendor") + ")",
                ownJvmFlags(),
                Virtualization.ofHost(cpuinfo));
    }

    /**
     * This JVM's input arguments as it was started (e.g. {@code -XX:TieredStopAtLevel=1}), in
     * order; a value of a flag named like a secret reads {@code (hidden)}. Never throws.
     */
    public static List<String> ownJvmFlags() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .map(flag -> SECRET_FLAG.matcher(flag).replaceFirst("$1(hidden)")).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static String osName() {
        for (String line : lines(Path.of("/etc/os-release"))) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring("PRETTY_NAME=".length()).replace("\"", "");
            }
        }
        return System.getProperty("os.name");
    }

    private static String cpuModel(String cpuinfo) {
        for (String line : cpuinfo == null ? List.<String>of() : cpuinfo.lines().toList()) {
            if (line.startsWith("model name")) {
                int colon = line.indexOf(':');
                return line.substring(colon + 1).trim();
            }
        }
        return "unknown";
    }

    private static long memTotalBytes() {
        for (String line : lines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                // "MemTotal:       24610440 kB" — the kernel's kB are KiB.
                String[] parts = line.trim().split("\\s+");
                try {
                    return Long.parseLong(parts[1]) * 1024L;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static String readHostname() {
        Optional<String> fromProc = firstLine(Path.of("/proc/sys/kernel/hostname"));
        if (fromProc.isPresent()) {
            return fromProc.get();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Optional<String> firstLine(Path file) {
        List<String> lines = lines(file);
        return lines.isEmpty() ? Optional.empty() : Optional.of(lines.get(0).trim());
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
