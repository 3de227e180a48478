package dev.spacebench.fleet;

import dev.spacebench.ChildApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code spacebench worker --testbed NAME} as a real child JVM (so kill -9 is real), its log in a file. */
final class WorkerJvm implements AutoCloseable {

    private final String testbed;
    private final Process process;
    private final Path log;

    private WorkerJvm(String testbed, Process process, Path log) {
        this.testbed = testbed;
        this.process = process;
        this.log = log;
    }

    /**
     * @param dir its Spaces, kind checks and log go here
     * @param jvmOptions before the class path
     * @param args after {@code worker --testbed NAME}: database, lease…
     * @param wrapper what the java command runs through, which must exec it (e.g. {@code ip netns exec NAME}); may be empty
     */
    static WorkerJvm start(String testbed, Path dir, List<String> jvmOptions, List<String> args, List<String> wrapper) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(wrapper);
        List<String> workerArgs = new ArrayList<>(List.of("worker", "--testbed", testbed,
                "--spacebench.spaces.root=" + Files.createDirectories(dir.resolve("spaces")),
                "--spacebench.space.checks-root=" + dir.resolve("checks")));
        workerArgs.addAll(ChildApp.QUIET);
        workerArgs.addAll(args);
        command.addAll(ChildApp.mainCommand(jvmOptions, workerArgs));
        Path log = dir.resolve("worker.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new WorkerJvm(testbed, process, log);
    }

    String testbed() {
        return testbed;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** kill -9, and waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGSTOP or SIGCONT: the JVM freezes or goes on, as a host that drops off the network and comes back. */
    void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(40, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
