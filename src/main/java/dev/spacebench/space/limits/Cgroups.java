package dev.spacebench.space.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * Finds where this app may make child cgroups with a given controller: its own cgroup in the
 * hierarchy that carries the controller, read from {@code /proc/self/cgroup} and
 * {@code /proc/self/mountinfo}. Handles cgroup v1, v2 and hybrid hosts (v1 controllers plus a v2
 * tree); on v2 the controller must already be enabled for our cgroup's children, since enabling it
 * ourselves would need a cgroup with no processes in it.
 */
public final class Cgroups {

    private Cgroups() {}

    /**
     * Where children with a controller can be made.
     *
     * @param dir our own cgroup's directory in that hierarchy; children go below it
     * @param v2 whether it is the unified (v2) hierarchy, whose file names differ
     */
    public record Place(Path dir, boolean v2) {
        public String describe(String controller) {
            return (v2 ? "cgroup v2 " : "cgroup v1 ") + controller;
        }

        /** The memory limit in bytes set on this cgroup; empty if none ("max") or unreadable. */
        public OptionalLong memoryLimit() {
            try {
                String value = Files.readString(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes")).trim();
                long bytes = value.equals("max") ? Long.MAX_VALUE : Long.parseLong(value);
                // v1 writes "no limit" as the largest page-aligned number
                return bytes >= Long.MAX_VALUE / 2 ? OptionalLong.empty() : OptionalLong.of(bytes);
            } catch (IOException | NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
    }

    /** A place, or why there is none (then {@code place} is null). */
    public record Lookup(Place place, String reason) {}

    /**
     * Where this app may make children with {@code controller}.
     *
     * @param controller e.g. {@code memory} or {@code cpu}
     */
    public static Lookup find(String controller) {
        Lookup lookup = locate(controller, "self");
        if (lookup.place() == null) {
            return lookup;
        }
        Path dir = lookup.place().dir();
        if (!Files.isWritable(dir)) {
            return new Lookup(null, dir + " is not writable (no delegated " + controller + " cgroup)");
        }
        if (lookup.place().v2() && !enabledForChildren(dir, controller)) {
            return new Lookup(null, "cgroup v2: the " + controller + " controller is not enabled in "
                    + dir.resolve("cgroup.subtree_control") + " (delegate it, e.g. systemd Delegate=yes, and run the app in a leaf cgroup)");
        }
        return lookup;
    }

    /** The cgroup a process is in for {@code controller}, e.g. to read the limits someone else set. */
    public static Lookup of(long pid, String controller) {
        return locate(controller, Long.toString(pid));
    }

    private static Lookup locate(String controller, String pid) {
        try {
            return locate(controller, Files.readAllLines(Path.of("/proc", pid, "cgroup")),
                    Files.readAllLines(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            return new Lookup(null, "cannot read /proc/" + pid + "/cgroup or /proc/self/mountinfo: " + e.getMessage());
        }
    }

    public static Lookup locate(String controller, List<String> cgroupLines, List<String> mountinfoLines) {
        String v1Path = null;
        String v2Path = null;
        for (String line : cgroupLines) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2Path = f[2];
            } else if (Arrays.asList(f[1].split(",")).contains(controller)) {
                v1Path = f[2];
            }
        }
        for (String line : mountinfoLines) {
            Mount mount = Mount.parse(line);
            if (mount == null) {
                continue;
            }
            if (v1Path != null && mount.type().equals("cgroup") && mount.superOptions().contains(controller)) {
                return place(mount, v1Path, false, controller);
            }
            if (v1Path == null && v2Path != null && mount.type().equals("cgroup2")) {
                return place(mount, v2Path, true, controller);
            }
        }
        return new Lookup(null, "no mounted cgroup hierarchy carries the " + controller + " controller");
    }

    private static Lookup place(Mount mount, String path, boolean v2, String controller) {
        // Inside a cgroup namespace both paths are relative to the namespace's root; a bind of a
        // sub-tree shows its root in mountinfo, which the path must lie below.
        String root = mount.root().equals("/") ? "" : mount.root();
        if (!path.equals(root) && !path.startsWith(root + "/")) {
            return new Lookup(null, "the " + controller + " cgroup " + path + " is outside the mounted part " + mount.root());
        }
        Path dir = Path.of(mount.point() + path.substring(root.length()));
        if (!Files.isDirectory(dir)) {
            return new Lookup(null, dir + " is not a directory");
        }
        return new Lookup(new Place(dir, v2), "");
    }

    private static boolean enabledForChildren(Path dir, String controller) {
        try {
            return Arrays.asList(Files.readString(dir.resolve("cgroup.subtree_control")).trim().split(" ")).contains(controller);
        } catch (IOException e) {
            return false;
        }
    }

    /** The fields of one mountinfo line this class needs; see proc(5). */
    private record Mount(String root, String point, String type, List<String> superOptions) {
        static Mount parse(String line) {
            String[] f = line.split(" ");
            int dash = Arrays.asList(f).indexOf("-");
            if (dash < 6 || f.length < dash + 4) {
                return null;
            }
            return new Mount(unescape(f[3]), unescape(f[4]), f[dash + 1], Arrays.asList(f[dash + 3].split(",")));
        }

        /** mountinfo writes space, tab, newline and backslash as octal escapes. */
        private static String unescape(String s) {
            return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
        }
    }
}
