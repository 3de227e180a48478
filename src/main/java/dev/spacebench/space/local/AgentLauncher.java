package dev.spacebench.space.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.jar.JarFile;

/**
 * Builds the command that starts the agent from the code this app runs: the same JVM binary, and
 * either {@code -jar spacebench.jar agent} (when running from the packaged jar) or
 * {@code -cp <classpath> dev.spacebench.agent.AgentMain} (from an IDE, {@code spring-boot:run} or
 * the tests).
 */
public final class AgentLauncher {

    public static final String AGENT_MAIN = "dev.spacebench.agent.AgentMain";
    /** The agent's young generation in MiB, where the heap allows (see {@link #jvmOptions(Long)}). */
    static final long YOUNG_MIB = 48;

    private AgentLauncher() {}

    /** The running JVM's own java binary (not /usr/bin/java, which may be a symlink chain). */
    public static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * JVM options for the agent. VFORK is the cheapest spawn mechanism JDK 17 has on Linux (about
     * half the cost of the default posix_spawn through jspawnhelper on our machines); later JDKs
     * dropped it, so it is only set where it exists.
     *
     * @param memoryMiB the Space's memory limit in MiB, or null: the heap then stays within half
     *     of it, because a JVM that cannot see the limit (no /sys in a sandbox) would size itself
     *     from the host's memory and be killed by the cgroup instead of collecting garbage
     *
     * <p>The young generation is fixed at {@value #YOUNG_MIB} MiB (at most half the heap): with
     * the full collection the host asks for before each loop, a loop meets no GC pause until it has
     * allocated its eden (80% of it). Measured with {@code spacebench.jar floor cost}: about 28 KiB
     * per exec round trip and 5.5 KiB per no-op, so about 1,400 execs or 7,000 no-ops; the old
     * default (SerialGC sizing the young generation from a 64 MiB initial heap, eden about 17 MiB)
     * collected about every 380 execs. Larger would cost resident memory: every eden page is
     * touched before the first collection. Epsilon (no collector) is not bounded: a 512 MiB stream
     * transfer alone allocates more than a GiB in the agent.
     */
    public static List<String> jvmOptions(Long memoryMiB) {
        long maxHeap = memoryMiB == null ? 512 : Math.max(8, Math.min(512, memoryMiB / 2));
        long initialHeap = Math.min(64, maxHeap);
        long young = Math.min(YOUNG_MIB, maxHeap / 2);
        List<String> options = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xms" + initialHeap + "m", "-Xmx" + maxHeap + "m",
                "-Xmn" + young + "m", "-Xshare:auto"));
        options.addAll(QUIET_STDOUT);
        if (Runtime.version().feature() < 22) {
            options.add("-Djdk.lang.Process.launchMechanism=VFORK");
        }
        if (transparentHugePagesOnRequest(THP_MODE)) {
            options.add("-XX:+UseTransparentHugePages");
        }
        return options;
    }

    /**
     * The JVM's own warnings to stderr, none on stdout: a JVM logs its warnings on stdout by default
     * ({@code -Xlog:all=warning:stdout}), and the stdout of the JVMs started from here is data: the
     * driver's is its sample stream (it must start with its header), the agent's carries its readiness
     * line. Seen: a class-data archive that did not match the class path ({@code [warning][cds,dynamic]
     * Unable to use shared archive}) made a driver's stream start with that line instead of its header,
     * and the run failed. {@code all=off} turns off the default output only, so a log file asked for on
     * the same command line ({@code -Xlog:class+load=info:file=…}, {@code floor cost}) still gets its lines,
     * which {@code -Xlog:disable} would not.
     */
    public static final List<String> QUIET_STDOUT = List.of("-Xlog:all=off", "-Xlog:all=warning:stderr");

    static final Path THP_MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    /**
     * Whether the kernel gives transparent huge pages to a process that asks ({@code [madvise]} or
     * {@code [always]} selected in {@code mode}); the agent's JVM then asks for its heap. Why: a
     * JVM's start is mostly page faults on a virtual machine like ours (an agent's start: 10,500
     * minor faults and 500 ms of CPU; a first-touch fault costs 51–65 µs there), and 2 MiB pages
     * take about 1,700 of them. Measured (10 fresh agents each, interleaved, load 0.6–1.7): spawn to
     * listening 390 → 353 ms p50, 500 → 460 ms of CPU, resident memory at start 62 → 69 MiB. Not
     * asked where the kernel refuses, so that the agent's JVM prints no warning.
     */
    static boolean transparentHugePagesOnRequest(Path mode) {
        try {
            String text = Files.readString(mode);
            return text.contains("[madvise]") || text.contains("[always]");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** java, JVM options, and how to reach the agent's main class; agent arguments follow. */
    public static List<String> command() {
        return command(null);
    }

    /**
     * As {@link #command()}, with the heap sized for a memory limit of {@code memoryMiB} (null: none),
     * and the agent's class-data archive ({@link AgentArchive}) when one has been made.
     */
    public static List<String> command(Long memoryMiB) {
        return command(memoryMiB, UnaryOperator.identity(), true);
    }

    /**
     * As {@link #command(Long)}, for a Space that sees the class path elsewhere (a VM's copy).
     *
     * @param where a class path entry's host path → the path the agent sees it at
     */
    public static List<String> command(Long memoryMiB, UnaryOperator<Path> where) {
        // No archive: it holds the host's class path and JDK, which a VM's copy does not match.
        return command(memoryMiB, where, false);
    }

    private static List<String> command(Long memoryMiB, UnaryOperator<Path> where, boolean archive) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions(memoryMiB));
        List<Path> entries = classPathEntries();
        if (archive) {
            AgentArchive.find(entries).ifPresent(file -> command.add("-XX:SharedArchiveFile=" + file));
        }
        // Absolute, because the agent starts in its own work directory.
        String classPath = String.join(File.pathSeparator, entries.stream().map(where).map(Path::toString).toList());
        command.add("-cp");
        command.add(classPath);
        command.add(AGENT_MAIN);
        return command;
    }

    /**
     * What the agent's command reads from the host file system besides the OS: the JVM's home, its
     * configuration outside it, each class path entry (jar or directory) and the class-data archive
     * if there is one, absolute. A Space
     * that hides the host's files must show it these, read-only, at the same paths.
     */
    public static List<Path> hostPaths() {
        List<Path> paths = new ArrayList<>(runtimePaths());
        List<Path> entries = classPathEntries();
        paths.addAll(entries);
        AgentArchive.find(entries).ifPresent(paths::add);
        return paths;
    }

    /** The JVM's home and its configuration outside it (directories), absolute. */
    public static List<Path> runtimePaths() {
        List<Path> paths = new ArrayList<>();
        paths.add(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize());
        // Debian's OpenJDK keeps conf/ as symlinks into /etc/java-N-openjdk; without it the JVM
        // fails once it reads its security configuration. Self-contained JDKs have no such dir.
        Path etc = Path.of("/etc/java-" + Runtime.version().feature() + "-openjdk");
        if (Files.isDirectory(etc)) {
            paths.add(etc);
        }
        return paths;
    }

    /**
     * The agent's class path entries (jars or directories), absolute, in order: when this JVM runs
     * from the Spring Boot jar, that jar unpacked once into a cache directory (see
     * {@link AgentClassPath}: Boot's launcher would double the agent's start); from a plain class
     * path with the app's classes in a directory (the tests, an IDE), that directory packed into
     * one jar and the agent's libraries only ({@link AgentClassPath#packed}); from a class path that starts
     * with such a packed jar (an app JVM the tests start), the same; otherwise this JVM's own.
     *
     * @throws java.io.UncheckedIOException if the Boot jar cannot be unpacked
     */
    public static List<Path> classPathEntries() {
        List<Path> own = ownClassPathEntries();
        if (own.size() == 1 && isBootJar(own.get(0))) {
            try {
                return AgentClassPath.unpacked(own.get(0), Path.of(System.getProperty("java.io.tmpdir"), "spacebench-agent"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("could not unpack " + own.get(0) + " for the agent", e);
            }
        }
        Path classes = ownClassesDirectory(own);
        if (classes != null) {
            // Beside the classes (Maven's target/), so that a clean build removes them with the rest.
            Path cache = classes.getParent() != null && Files.isWritable(classes.getParent()) ? classes.getParent().resolve("agent-classpath")
                    : Path.of(System.getProperty("java.io.tmpdir"), "spacebench-agent");
            try {
                return AgentClassPath.packed(own, classes, cache);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("could not pack " + classes + " for the agent", e);
            }
        }
        if (!own.isEmpty() && AgentClassPath.isPacked(own.get(0))) {
            // An app JVM the tests started on the classes they packed: its agents as the tests' own.
            return AgentClassPath.fromPacked(own);
        }
        return own;
    }

    /** The directory on the class path that holds the agent's main class (Maven's target/classes); null when it comes from a jar. */
    private static Path ownClassesDirectory(List<Path> own) {
        String agentMain = AGENT_MAIN.replace('.', '/') + ".class";
        return own.stream().filter(Files::isDirectory).filter(dir -> Files.isRegularFile(dir.resolve(agentMain))).findFirst().orElse(null);
    }

    /**
     * The class path of a process that runs the app's measuring code outside Spring (the run's
     * driver): {@link #classPathEntries()}, then the libraries in {@code libraryPrefixes}, which
     * the agent's class path leaves out: from the unpacked jar when this JVM runs from the Spring
     * Boot jar, from this JVM's own class path when its classes were packed. Otherwise this JVM's
     * own class path already has them.
     *
     * @param libraryPrefixes file-name prefixes of the extra jars, e.g. {@code "sshd-"}
     * @throws java.io.UncheckedIOException if the Boot jar cannot be unpacked or listed
     */
    public static List<Path> classPathEntriesWith(List<String> libraryPrefixes) {
        List<Path> entries = new ArrayList<>(classPathEntries());
        List<Path> own = ownClassPathEntries();
        if (own.size() == 1 && isBootJar(own.get(0))) {
            try {
                entries.addAll(AgentClassPath.moreLibraries(entries, libraryPrefixes));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("could not list the libraries unpacked from " + own.get(0), e);
            }
        } else if (ownClassesDirectory(own) != null || !own.isEmpty() && AgentClassPath.isPacked(own.get(0))) {
            // Packed as the agent's (classPathEntries): the libraries wanted from this JVM's own class path, after the agent's.
            own.stream().filter(entry -> !Files.isDirectory(entry) && !entries.contains(entry))
                    .filter(jar -> libraryPrefixes.stream().anyMatch(jar.getFileName().toString()::startsWith)).forEach(entries::add);
        }
        return entries;
    }

    private static List<Path> ownClassPathEntries() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(Path.of(entry).toAbsolutePath().normalize());
            }
        }
        return entries;
    }

    private static boolean isBootJar(Path entry) {
        if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
            return false;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.getManifest() != null && jar.getManifest().getMainAttributes().getValue("Start-Class") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
