package dev.spacebench.space.limits;

import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.local.Executables;
import dev.spacebench.space.local.ProcessTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.spacebench.space.SpaceFacts;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Space's CPU and memory shape, enforced on a host process tree (the sandbox kind): CPUs by
 * affinity ({@code taskset}), a fraction of a CPU by a CFS quota, memory by a memory cgroup. What
 * this host cannot enforce is recorded, not refused: the run's page shows it.
 *
 * <p>Life: {@link #apply} makes the cgroups, {@link #wrap} puts the command into them before it
 * starts (so every process it forks is inside), {@link #release} removes them once the Space's
 * processes are gone, killing any left inside.
 */
public final class HostShape {

    private static final Logger log = LoggerFactory.getLogger(HostShape.class);

    private final List<String> prefix;
    private final List<Path> cgroups;
    private final String asked;
    private final List<String> enforced;
    private final List<String> notEnforced;

    private HostShape(List<String> prefix, List<Path> cgroups, String asked, List<String> enforced, List<String> notEnforced) {
        this.prefix = prefix;
        this.cgroups = cgroups;
        this.asked = asked;
        this.enforced = enforced;
        this.notEnforced = notEnforced;
    }

    /**
     * @param name the cgroup directory name, unique per Space
     * @param spec the shape asked for
     * @throws IOException only if a cgroup was made but could not be set up; then none is left
     */
    public static HostShape apply(String name, SpaceSpec spec) throws IOException {
        Double cpus = spec.cpus();
        Long memoryMiB = spec.memoryMiB();
        List<String> prefix = new ArrayList<>();
        List<Path> cgroups = new ArrayList<>();
        List<String> enforced = new ArrayList<>();
        List<String> notEnforced = new ArrayList<>();
        try {
            if (memoryMiB != null) {
                limitMemory(name, memoryMiB, cgroups, enforced, notEnforced);
            }
            if (cpus != null) {
                limitCpus(name, cpus, prefix, cgroups, enforced, notEnforced);
            }
        } catch (IOException | RuntimeException e) {
            cgroups.forEach(HostShape::remove);
            throw e;
        }
        if (!cgroups.isEmpty()) {
            // The shell joins the cgroups, then execs the command: nothing runs outside them.
            List<String> join = new ArrayList<>(List.of("/bin/sh", "-c",
                    "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"", "sh"));
            cgroups.forEach(dir -> join.add(dir.resolve("cgroup.procs").toString()));
            join.add("--");
            prefix.addAll(0, join);
        }
        return new HostShape(prefix, cgroups, spec.describeShape(), enforced, notEnforced);
    }

    private static void limitMemory(String name, long memoryMiB, List<Path> cgroups, List<String> enforced,
            List<String> notEnforced) throws IOException {
        Cgroups.Lookup memory = Cgroups.find("memory");
        if (memory.place() == null) {
            notEnforced.add("memory: " + memory.reason());
            return;
        }
        Path dir = create(memory.place().dir().resolve(name), cgroups);
        long bytes = memoryMiB << 20;
        if (memory.place().v2()) {
            Files.writeString(dir.resolve("memory.max"), Long.toString(bytes));
            writeIfPresent(dir.resolve("memory.swap.max"), "0");
        } else {
            Files.writeString(dir.resolve("memory.limit_in_bytes"), Long.toString(bytes));
            // memory+swap, so the limit is not dodged by swapping; absent without swap accounting
            writeIfPresent(dir.resolve("memory.memsw.limit_in_bytes"), Long.toString(bytes));
        }
        enforced.add("memory limit " + memoryMiB + " MiB (" + memory.place().describe("memory") + " " + dir + ")");
    }

    private static void limitCpus(String name, double cpus, List<String> prefix, List<Path> cgroups, List<String> enforced,
            List<String> notEnforced) throws IOException {
        List<Integer> allowed = CpuSet.allowed();
        CpuShape shape = CpuShape.of(cpus, allowed);
        Optional<Path> taskset = Executables.onPath("taskset");
        if (shape.pinned() && taskset.isEmpty()) {
            notEnforced.add("CPU affinity: taskset not found on PATH (install util-linux)");
        } else {
            if (shape.pinned()) {
                prefix.addAll(List.of(taskset.get().toString(), "-c", CpuSet.format(shape.cpus())));
            }
            enforced.add(shape.describeAffinity(allowed.size(), "taskset"));
        }
        if (shape.quota() == null) {
            return;
        }
        Cgroups.Lookup cpu = Cgroups.find("cpu");
        if (cpu.place() == null) {
            notEnforced.add("CPU quota for " + cpus + " CPUs: " + cpu.reason());
            return;
        }
        Path dir = create(cpu.place().dir().resolve(name), cgroups);
        long period = 100_000;
        long quota = Math.max(1_000, Math.round(shape.quota() * period));
        if (cpu.place().v2()) {
            Files.writeString(dir.resolve("cpu.max"), quota + " " + period);
        } else {
            Files.writeString(dir.resolve("cpu.cfs_period_us"), Long.toString(period));
            Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        }
        enforced.add("CPU quota " + quota + " µs per " + period + " µs (" + cpu.place().describe("cpu") + " " + dir + ")");
    }

    private static Path create(Path dir, List<Path> cgroups) throws IOException {
        Files.createDirectory(dir);
        cgroups.add(dir);
        return dir;
    }

    private static void writeIfPresent(Path file, String value) {
        if (Files.exists(file)) {
            try {
                Files.writeString(file, value);
            } catch (IOException e) {
                log.debug("could not write {}: {}", file, e.toString());
            }
        }
    }

    /** {@code command} with the affinity and cgroup joining in front of it. */
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(prefix);
        wrapped.addAll(command);
        return wrapped;
    }

    /** Sets the Space's shape facts: asked, enforced and, if any, not enforced. */
    public SpaceFacts.Builder describe(SpaceFacts.Builder facts) {
        return facts.shape(asked, enforced(), notEnforced.isEmpty() ? null : String.join("; ", notEnforced));
    }

    /** The limits applied, e.g. "memory limit 256 MiB (…)"; "none" when none. */
    public String enforced() {
        return enforced.isEmpty() ? "none" : String.join("; ", enforced);
    }

    /** Kills whatever is still inside this Space's cgroups and removes them. Idempotent. */
    public void release() {
        cgroups.forEach(HostShape::remove);
    }

    private static void remove(Path dir) {
        // A cgroup can only be removed once empty; a killed process leaves it a moment later.
        for (int attempt = 0; attempt < 50 && Files.isDirectory(dir); attempt++) {
            killAll(dir);
            try {
                Files.delete(dir);
                return;
            } catch (IOException e) {
                sleep(20);
            }
        }
        if (Files.isDirectory(dir)) {
            log.warn("could not remove cgroup {}", dir);
        }
    }

    private static void killAll(Path dir) {
        try {
            for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessTrees::kill);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // gone already
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
