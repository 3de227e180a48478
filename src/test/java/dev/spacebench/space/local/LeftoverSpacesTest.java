package dev.spacebench.space.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.space.SpacesSettings;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a process Space's commands left running outside the agent's tree (a {@code setsid}
 * daemon, a plain {@code sleep &} whose shell exited, a double fork) when the app was killed: the
 * next start's cleanup finds them by the Space's environment mark, as delete does, though their
 * command lines name nothing of the Space. Real processes; a live app's Space is left alone.
 */
class LeftoverSpacesTest {

    @TempDir
    Path root;

    private final List<String> started = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() throws Exception {
        for (String text : started) {
            for (String line : Leftovers.processesMentioning(text)) {
                ProcessHandle.of(Long.parseLong(line.substring(0, line.indexOf(':')))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void escapedProcessesOfADeadAppsProcessSpaceAreKilledByTheirMark() throws Exception {
        // The dead app: a process that has exited, named in the Space directory's owner mark.
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        String deadOwner = "pid=" + gone.pid() + "\nstarted=" + gone.toHandle().info().startInstant().map(Object::toString).orElse("") + "\n";
        Path dead = Files.createDirectory(root.resolve("process-dead-app-space"));
        Files.writeString(dead.resolve(OwnerMark.FILE), deadOwner, StandardCharsets.UTF_8);
        // A live app's Space (this JVM owns it) on the same root, with an escaped process of its own.
        Path live = Files.createDirectory(root.resolve("process-live-app-space"));
        OwnerMark.write(live);

        long unique = 1000 + System.nanoTime() % 9000;
        String daemon = "3600." + unique;
        String background = "3601." + unique;
        String doubled = "3602." + unique;
        String others = "3603." + unique;
        escape(dead, "setsid sleep " + daemon + " >/dev/null 2>&1 </dev/null &");
        escape(dead, "sleep " + background + " >/dev/null 2>&1 </dev/null &");
        escape(dead, "(sh -c 'sleep " + doubled + "' >/dev/null 2>&1 </dev/null &) ; true");
        escape(live, "setsid sleep " + others + " >/dev/null 2>&1 </dev/null &");
        for (String s : List.of(daemon, background, doubled, others)) {
            awaitRunning("sleep " + s);
            assertThat(Leftovers.processesMentioning("sleep " + s).toString()).as("the escapee's command line names no Space directory")
                    .doesNotContain(root.toString());
        }

        LeftoverSpaces.Removed removed = new LeftoverSpaces(new SpacesSettings(root), List.of(new ProcessSpaceProvider(root))).remove();

        long deadline = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < deadline && !(Leftovers.processesMentioning("sleep " + daemon).isEmpty()
                && Leftovers.processesMentioning("sleep " + background).isEmpty()
                && Leftovers.processesMentioning("sleep " + doubled).isEmpty())) {
            Leftovers.sleep(20);
        }
        assertThat(Leftovers.processesMentioning("sleep " + daemon)).as("the setsid daemon after the cleanup").isEmpty();
        assertThat(Leftovers.processesMentioning("sleep " + background)).as("the sleep & after the cleanup").isEmpty();
        assertThat(Leftovers.processesMentioning("sleep " + doubled)).as("the double fork after the cleanup").isEmpty();
        // The double fork's middle shell may still be there when the kill round reaches it: at least one per escapee.
        assertThat(removed.processes()).as("processes the cleanup says it killed").isGreaterThanOrEqualTo(3);
        assertThat(removed.dirs()).containsExactly(dead);
        assertThat(Leftovers.processesMentioning("sleep " + others)).as("a live app's Space's process").isNotEmpty();
        assertThat(live).isDirectory();
    }

    /** Runs {@code script} with the Space's mark, as its agent would, and waits for the shell to exit. */
    private void escape(Path space, String script) throws Exception {
        started.add(script.replaceAll(".*sleep ([0-9.]+).*", "sleep $1"));
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put(ProcessSpaceProvider.SPACE_MARK, space.getFileName().toString());
        Process shell = builder.start();
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).as("the shell of '%s' exits", script).isTrue();
    }

    private static void awaitRunning(String text) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline && Leftovers.processesMentioning(text).isEmpty()) {
            Leftovers.sleep(20);
        }
        assertThat(Leftovers.processesMentioning(text)).as("'%s' runs", text).isNotEmpty();
    }
}
