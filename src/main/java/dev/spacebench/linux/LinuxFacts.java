package dev.spacebench.linux;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The running Linux system's facts, read from /proc and /etc (and the JVM's properties): what the
 * agent reports of its Space and {@code environment.SystemFacts} of the host. Below both, so the
 * agent reads them without importing the host's environment. Pure: no Spring, no caching; every
 * call reads the files again. Never throws: an unknown fact is "unknown" or 0.
 */
public final class LinuxFacts {

    // A flag such as -Dspring.datasource.password=… must not reach a page.
    private static final Pattern SECRET_FLAG = Pattern.compile("(?i)^(-D[^=]*(?:password|secret|token|key|credential)[^=]*=).*");

    private LinuxFacts() {}

    /** {@code /proc/cpuinfo}'s text, or null when unreadable. */
    public static String cpuinfo() {
        return text(Path.of("/proc/cpuinfo"));
    }

    /** The kernel's release ({@code /proc/sys/kernel/osrelease}), else {@code os.version}. */
    public static String kernel() {
        return firstLine(Path.of("/proc/sys/kernel/osrelease")).orElse(System.getProperty("os.version"));
    }

    public static String arch() {
        return System.getProperty("os.arch");
    }

    /** CPUs this JVM may use. */
    public static int cpuCount() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The JVM's name, version and vendor. */
    public static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")";
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

    public static String os() {
        for (String line : lines(Path.of("/etc/os-release"))) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring("PRETTY_NAME=".length()).replace("\"", "");
            }
        }
        return System.getProperty("os.name");
    }

    public static String cpuModel(String cpuinfo) {
        for (String line : cpuinfo == null ? List.<String>of() : cpuinfo.lines().toList()) {
            if (line.startsWith("model name")) {
                int colon = line.indexOf(':');
                return line.substring(colon + 1).trim();
            }
        }
        return "unknown";
    }

    public static long memoryBytes() {
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

    public static String hostname() {
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
