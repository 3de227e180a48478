package dev.spacebench.space;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Builds the command that starts the agent from the code this app runs: the same JVM binary, and
 * either {@code -jar spacebench.jar agent} (when running from the packaged jar) or
 * {@code -cp <classpath> dev.spacebench.agent.AgentMain} (from an IDE, {@code spring-boot:run} or
 * the tests).
 */
public final class AgentLauncher {

    static final String AGENT_MAIN = "dev.spacebench.agent.AgentMain";

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
     */
    public static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xms64m", "-Xmx512m", "-Xshare:auto"));
        if (Runtime.version().feature() < 22) {
            options.add("-Djdk.lang.Process.launchMechanism=VFORK");
        }
        return options;
    }

    /** The launch mechanism the agent will use, for the page. */
    public static String launchMechanism() {
        return Runtime.version().feature() < 22 ? "VFORK" : "JDK default (POSIX_SPAWN)";
    }

    /** java, JVM options, and how to reach the agent's main class; agent arguments follow. */
    public static List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions());
        String classPath = System.getProperty("java.class.path");
        if (isBootJar(classPath)) {
            command.add("-jar");
            command.add(classPath);
            command.add("agent");
        } else {
            command.add("-cp");
            command.add(classPath);
            command.add(AGENT_MAIN);
        }
        return command;
    }

    private static boolean isBootJar(String classPath) {
        if (classPath == null || classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(classPath)) {
            return jar.getManifest() != null && jar.getManifest().getMainAttributes().getValue("Start-Class") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
