package dev.spacebench.space.local;

import dev.spacebench.space.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The agent's class path when the app runs from its Spring Boot jar. Starting the agent with
 * {@code java -jar spacebench.jar agent} goes through Boot's nested-jar launcher, which roughly
 * doubles the JVM's start (about 1.7 s against 0.8 s on our machines) and so every Space's ready
 * time. Instead the jar's classes and libraries are unpacked once per jar into a cache directory
 * and the agent runs from a plain class path.
 *
 * <p>The app's own classes go into one jar ({@code classes.jar}), not a directory: the JVM's class
 * data sharing archive ({@link AgentArchive}) cannot be made from a class path with a non-empty
 * directory on it.
 */
public final class AgentClassPath {

    private static final String CLASSES = "BOOT-INF/classes/";
    private static final String LIB = "BOOT-INF/lib/";
    /** Changes when the unpacked layout does, so that a cache of another layout is not reused. */
    private static final String LAYOUT = "classes.jar";
    /**
     * The library jars the agent runs with, by file-name prefix: grpc-java, protobuf and what they
     * need at run time. The app's others (Spring, logback, H2, Jackson…, about 120 jars) only
     * slowed the agent's start: every ServiceLoader look-up (java.util.logging's, gRPC's providers)
     * opened all of them, about 230 ms of a 1.2 s start at load 10, and Netty, finding SLF4J,
     * logged through logback instead of the agent's one-line java.util.logging handler. JNA is the
     * agent's native spawn path (agent/NativeSpawn), loaded at its first Exec.
     */
    static final List<String> AGENT_LIBRARIES = List.of("grpc-", "protobuf-java-", "proto-google-common-protos-", "guava-",
            "failureaccess-", "perfmark-api-", "jna-");
    /** In the cache key: a class path of other libraries needs its own class-data archive. */
    private static final String LIBRARIES_KEY = String.join(",", AGENT_LIBRARIES);

    private AgentClassPath() {}

    /**
     * @param bootJar the app's executable jar
     * @param cacheRoot where unpacked class paths are kept (one directory per jar version)
     * @return the class path entries: the app's classes as one jar, then each library jar the agent
     *     needs ({@link #AGENT_LIBRARIES}) in the jar's order
     * @throws IOException if the jar cannot be read or the cache written
     */
    public static synchronized List<Path> unpacked(Path bootJar, Path cacheRoot) throws IOException {
        String key = bootJar.toAbsolutePath() + "|" + Files.size(bootJar) + "|" + Files.getLastModifiedTime(bootJar).toMillis() + "|" + LAYOUT + "|" + LIBRARIES_KEY;
        Path dest = cacheRoot.resolve("agent-classpath-" + shortHash(key));
        if (!Files.exists(dest.resolve(".complete"))) {
            Files.createDirectories(cacheRoot);
            Path temp = Files.createTempDirectory(cacheRoot, "unpacking-");
            Files.createDirectories(temp.resolve("lib"));
            try (JarFile jar = new JarFile(bootJar.toFile());
                    JarOutputStream classes = new JarOutputStream(Files.newOutputStream(temp.resolve(LAYOUT)))) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (entry.isDirectory() || !(name.startsWith(CLASSES) || name.startsWith(LIB)) || name.contains("..")) {
                        continue;
                    }
                    try (InputStream in = jar.getInputStream(entry)) {
                        if (name.startsWith(CLASSES)) {
                            classes.putNextEntry(new JarEntry(name.substring(CLASSES.length())));
                            in.transferTo(classes);
                            classes.closeEntry();
                        } else {
                            Path target = temp.resolve("lib/" + name.substring(LIB.length()));
                            Files.createDirectories(target.getParent());
                            Files.copy(in, target);
                        }
                    }
                }
                JarEntry index = jar.getJarEntry("BOOT-INF/classpath.idx");
                if (index != null) {
                    try (InputStream in = jar.getInputStream(index)) {
                        Files.write(temp.resolve("classpath.idx"), in.readAllBytes());
                    }
                }
            }
            Files.writeString(temp.resolve(".complete"), key);
            moveIntoPlace(temp, dest);
        }
        return entries(dest);
    }

    /**
     * The agent's class path when the app runs from a plain class path (the tests, an IDE,
     * {@code spring-boot:run}): the directory holding the app's classes packed into one
     * {@code classes.jar} (once per content of the directory, in a cache beside it), then the
     * library jars of {@code own} the agent needs ({@link #AGENT_LIBRARIES}), in class path order.
     * The rest of the class path (test classes, Spring, the test libraries, about 200 entries under
     * Maven) is left out, as from the Boot jar: it only slowed every agent's start (measured in the
     * suite: 1.1 s of CPU to ready against 0.7 s), and with a directory on it the agent could not
     * have its class-data archive ({@link AgentArchive}: 0.45 s).
     *
     * @param own this JVM's class path entries, absolute
     * @param classes the directory among them with the app's classes
     * @param cacheRoot where packed class paths are kept (one directory per content)
     * @return the class path entries
     * @throws IOException if the directory cannot be read or the cache written
     */
    public static synchronized List<Path> packed(List<Path> own, Path classes, Path cacheRoot) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(path -> !path.equals(classes)).sorted().toList();
        }
        List<Path> libraries = own.stream().filter(entry -> !Files.isDirectory(entry) && agentNeeds(entry.getFileName().toString())).toList();
        StringBuilder key = new StringBuilder(classes.toString()).append('|').append(LAYOUT).append("+dirs|").append(libraries);
        for (Path file : files) {
            key.append('|').append(classes.relativize(file)).append(' ').append(Files.size(file)).append(' ')
                    .append(Files.getLastModifiedTime(file).toMillis());
        }
        Path dest = cacheRoot.resolve("agent-classpath-" + shortHash(key.toString()));
        if (!Files.exists(dest.resolve(".complete"))) {
            Files.createDirectories(cacheRoot);
            Path temp = Files.createTempDirectory(cacheRoot, "packing-");
            try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(temp.resolve(LAYOUT)))) {
                for (Path file : files) {
                    String name = classes.relativize(file).toString().replace(java.io.File.separatorChar, '/');
                    // Directories too, as a jar tool writes them: a JVM on this jar (the tests' app JVMs,
                    // ChildClassPath) finds classpath:/templates/ and Flyway's db/migration through them.
                    boolean directory = Files.isDirectory(file);
                    jar.putNextEntry(new JarEntry(directory ? name + "/" : name));
                    if (!directory) {
                        Files.copy(file, jar);
                    }
                    jar.closeEntry();
                }
            }
            Files.writeString(temp.resolve(".complete"), key.substring(0, Math.min(key.length(), 4096)));
            moveIntoPlace(temp, dest);
        }
        List<Path> entries = new ArrayList<>();
        entries.add(dest.resolve(LAYOUT));
        entries.addAll(libraries);
        return entries;
    }

    /**
     * Whether a class path entry is a {@code classes.jar} that {@link #packed} made: an app JVM started
     * on one (the tests start the app so, beside the agents they start) gives its agents the same class
     * path as the JVM that packed it ({@link #fromPacked}), hence the same class-data archive.
     */
    public static boolean isPacked(Path entry) {
        return entry.getFileName() != null && entry.getFileName().toString().equals(LAYOUT) && Files.exists(entry.resolveSibling(".complete"))
                && !Files.isDirectory(entry.resolveSibling("lib")); // an unpacked Boot jar has its libraries there
    }

    /**
     * The agent's class path from a class path that starts with a packed {@code classes.jar} ({@link #isPacked}):
     * that jar, then the library jars of the rest the agent needs ({@link #AGENT_LIBRARIES}), in order, as
     * {@link #packed} returns them.
     */
    public static List<Path> fromPacked(List<Path> own) {
        List<Path> entries = new ArrayList<>();
        entries.add(own.get(0));
        own.stream().skip(1).filter(entry -> !Files.isDirectory(entry) && agentNeeds(entry.getFileName().toString())).forEach(entries::add);
        return entries;
    }

    /** Moves a finished cache directory into place; if another JVM made the same one first, uses theirs. */
    private static void moveIntoPlace(Path temp, Path dest) throws IOException {
        try {
            Files.move(temp, dest, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            FileTrees.deleteQuietly(temp);
            if (!Files.exists(dest.resolve(".complete"))) {
                throw e;
            }
        }
    }

    private static List<Path> entries(Path dest) throws IOException {
        List<Path> entries = new ArrayList<>();
        entries.add(dest.resolve(LAYOUT));
        Path index = dest.resolve("classpath.idx");
        if (Files.exists(index)) {
            // Lines look like: - "BOOT-INF/lib/grpc-api-1.84.1.jar"
            for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
                int start = line.indexOf(LIB);
                if (start >= 0) {
                    entries.add(dest.resolve("lib").resolve(line.substring(start + LIB.length()).replace("\"", "").trim()));
                }
            }
        } else {
            try (Stream<Path> jars = Files.list(dest.resolve("lib"))) {
                jars.sorted().forEach(entries::add);
            }
        }
        entries.removeIf(entry -> entry.getParent().endsWith("lib") && !agentNeeds(entry.getFileName().toString()));
        return entries;
    }

    /**
     * Library jars of an unpacked class path (as {@link #unpacked} returned it) beyond the agent's,
     * by file-name prefix, sorted by name. They go after the agent's entries, so the agent's
     * class-data archive, whose class path is then a prefix, still applies.
     *
     * @param agentEntries what {@link #unpacked} returned
     * @param prefixes file-name prefixes of the jars wanted, e.g. {@code "sshd-"}
     * @throws IOException if the unpacked library directory cannot be listed
     */
    public static List<Path> moreLibraries(List<Path> agentEntries, List<String> prefixes) throws IOException {
        Path lib = agentEntries.get(0).resolveSibling("lib");
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(jar -> prefixes.stream().anyMatch(jar.getFileName().toString()::startsWith)).sorted().toList();
        }
    }

    /** Whether a library jar (by file name) is one of {@link #AGENT_LIBRARIES}. */
    static boolean agentNeeds(String jarName) {
        return AGENT_LIBRARIES.stream().anyMatch(jarName::startsWith);
    }

    /** The first 8 bytes of the text's SHA-256 in hex: a cache key's file name. */
    public static String shortHash(String text) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
