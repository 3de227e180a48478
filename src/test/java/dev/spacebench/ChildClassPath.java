package dev.spacebench;

import dev.spacebench.space.local.AgentClassPath;
import dev.spacebench.space.local.AgentLauncher;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class path and class-data archive of the app JVMs the tests start ({@link ChildApp},
 * workers, commands): the app's classes packed into one jar (as the agent's, {@link AgentClassPath#packed})
 * and the app's runtime libraries (Maven writes their list, {@value #RUNTIME_CLASS_PATH}), not the
 * test class path. Why: each such JVM starts the whole Spring app, about 15 s of CPU on our 2-core
 * machines, and the suite starts about 25; with a dynamic class-data archive (AppCDS, made once
 * per packed class path by one training start, {@code -Dspring.context.exit=onRefresh}) a start
 * costs about 9 s (measured: one app to its first healthy answer, 15.5 → 9.2 s CPU, load 15). An
 * archive needs a class path of jars only, hence the packing. The test classes stay off it as they
 * are off the packaged jar's: a child app started on the test class path also scanned them and took
 * the tests' {@code @TestConfiguration} beans (an extra Space kind and export format) as its own.
 *
 * <p>Until the archive is made (in the background) and where it cannot be, the JVMs start without
 * it, as before.
 */
final class ChildClassPath {

    /** The system property naming the file with the app's runtime class path (pom.xml sets it). */
    static final String RUNTIME_CLASS_PATH = "spacebench.test.runtimeClassPath";

    private static String classPath;
    private static Path archive;
    private static Thread training;

    private ChildClassPath() {}

    /**
     * JVM options that put the child on its class path: {@code -cp …} and, once made, {@code -XX:SharedArchiveFile=…}.
     * The first call starts the training in the background: no test waits for it (on a loaded machine it
     * takes minutes), the JVMs started meanwhile start without the archive.
     */
    static synchronized List<String> jvmOptions() {
        if (classPath == null) {
            try {
                classPath = classPath();
                archive = archiveFile(classPath);
            } catch (IOException | RuntimeException e) {
                System.out.println("child JVMs start on the test class path: " + e);
                classPath = System.getProperty("java.class.path");
            }
        }
        List<String> result = new ArrayList<>();
        if (archive != null && Files.isRegularFile(archive)) {
            // Off: a JVM that cannot map it would print a warning on stdout, which some tests read.
            result.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        } else if (archive != null && training == null) {
            String cp = classPath;
            Path file = archive;
            training = new Thread(() -> {
                try {
                    train(cp, file);
                } catch (IOException | RuntimeException e) {
                    System.out.println("child JVMs start without a class-data archive: " + e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "child-app-cds-training");
            training.setDaemon(true);
            training.start();
        }
        result.addAll(List.of("-cp", classPath));
        return result;
    }

    private static String classPath() throws IOException {
        List<Path> own = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                own.add(Path.of(entry).toAbsolutePath().normalize());
            }
        }
        Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        if (!Files.isDirectory(classes)) {
            throw new IOException("the app's classes are not in a directory: " + classes);
        }
        Path jar = AgentClassPath.packed(own, classes, classes.getParent().resolve("agent-classpath")).get(0);
        List<String> entries = new ArrayList<>(List.of(jar.toString()));
        String listed = System.getProperty(RUNTIME_CLASS_PATH);
        if (listed != null && Files.isRegularFile(Path.of(listed))) {
            for (String entry : Files.readString(Path.of(listed)).strip().split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    entries.add(entry);
                }
            }
        } else {
            // Not under Maven (an IDE): the test class path's jars.
            own.stream().filter(entry -> !Files.isDirectory(entry)).map(Path::toString).forEach(entries::add);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Where the archive of this class path goes (beside the packed classes; shared by concurrent test JVMs). */
    private static Path archiveFile(String classPath) {
        Path packed = Path.of(classPath.split(File.pathSeparator)[0]).getParent();
        String key = classPath + "|" + AgentLauncher.javaBinary() + "|" + Runtime.version();
        return packed.resolveSibling("app-" + AgentClassPath.shortHash(key) + ".jsa");
    }

    /** Makes the archive by a training start of the app. */
    private static void train(String classPath, Path archive) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("spacebench-app-cds-");
        Path temp = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            long start = System.nanoTime();
            // The app's start up to its refreshed context (every bean made, web server not yet listening), then exit:
            // no kind is checked (no agent is started), the database is a throwaway one.
            List<String> command = List.of(AgentLauncher.javaBinary(), "-XX:TieredStopAtLevel=1", "-XX:ArchiveClassesAtExit=" + temp,
                    "-Dspring.context.exit=onRefresh", "-cp", classPath, Main.class.getName(), "--server.port=0",
                    "--spring.datasource.url=jdbc:h2:file:" + dir.resolve("db"), "--spacebench.spaces.root=" + dir.resolve("spaces"),
                    "--spacebench.space.checks-root=" + dir.resolve("checks"),
                    "--spacebench.space.check-on-demand=process,sandbox,container,vm,attach");
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("training.log").toFile()).start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("the training start did not end within 10 minutes");
            }
            if (!Files.isRegularFile(temp) || Files.size(temp) == 0) {
                throw new IOException("the training start (exit " + process.exitValue() + ") wrote no archive: "
                        + tail(dir.resolve("training.log")));
            }
            Files.move(temp, archive, StandardCopyOption.ATOMIC_MOVE);
            System.out.printf("child JVMs: class-data archive made in %.1f s: %s%n", (System.nanoTime() - start) / 1e9, archive);
        } finally {
            Files.deleteIfExists(temp);
            dev.spacebench.space.FileTrees.deleteQuietly(dir);
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 2000));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
