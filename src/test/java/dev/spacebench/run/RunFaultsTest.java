package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import dev.spacebench.ChildApp;
import dev.spacebench.driver.DriverProcess;
import dev.spacebench.space.Space;
import dev.spacebench.space.SpaceException;
import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.SpaceSpec;
import dev.spacebench.space.process.ProcessSpaceProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;

/**
 * A run whose agent dies ends FAILED at once with the reason in plain words, its failed
 * iterations in the status JSON and on the page's first lines; a run that meets an
 * {@link Error} ends FAILED too, and the worker takes the next run.
 */
@Import(RunFaultsTest.NativeKind.class)
class RunFaultsTest extends AppTestSupport {

    private static final String EXEC_FOREVER = "\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":1000000,\"warmups\":0,"
            + "\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}";

    @Test
    void killingTheAgentMidRunEndsTheRunFailedAtOnce() throws Exception {
        long id = json(post("/api/runs", "{\"space\":{\"kind\":\"process\"}," + EXEC_FOREVER + "}")).get("id").asLong();
        awaitDone(id, 200);
        killAgents();

        JsonNode run = awaitFinished(id, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("FAILED");
        assertThat(run.get("failureReason").asString())
                .startsWith("the agent stopped answering (")
                .containsPattern("during exec\\.noop iteration \\d+");
        int failed = run.get("failedSamples").asInt();
        assertThat(failed).as("failed measured iterations in the status JSON").isEqualTo(1);
        assertThat(run.get("failedByMetric").get("exec.noop").asInt()).isEqualTo(1);
        JsonNode noop = result(run, "exec.noop");
        assertThat(noop.get("failures").asInt()).isEqualTo(1);

        String page = get("/runs/" + id).body();
        String headline = page.substring(page.indexOf("class=\"headline\""), page.indexOf("</p>", page.indexOf("class=\"headline\"")));
        assertThat(headline).contains("This run ended FAILED").contains("n = " + noop.get("n").asInt() + ", 1 failed)");
        assertThat(get("/runs?status=FAILED").body()).as("the runs list's headline column")
                .contains("p50 ").contains("(n = " + noop.get("n").asInt() + ", 1 failed)");
        String top = page.substring(0, page.indexOf("id=\"results\""));
        // The reason is given once, in the headline (no second "Why it stopped" line repeating it).
        assertThat(top.split("the agent stopped answering", -1)).as("the reason, once on the first lines").hasSize(2);
        assertThat(top).contains("id=\"failed-samples\"").contains("exec.noop: 1");
        // The Method says what happened, not loops that did not run; no answers built on missing data.
        String method = page.substring(page.indexOf("id=\"method\""), page.indexOf("id=\"caveats\""));
        assertThat(method).doesNotContain("ran the loops below").contains("This run ended FAILED")
                .contains("Cut short: exec.noop (" + (noop.get("n").asInt() + 1) + " of 1000000 measured iterations, 1 failed)");
        String questions = page.substring(page.indexOf("id=\"questions\""), page.indexOf("id=\"downloads\""));
        assertThat(questions).doesNotContain("Why does running true take milliseconds").contains("Should I quote this run?");
        String markdown = get("/api/runs/" + id + "/page.md").body();
        assertThat(markdown).contains("Failed: 1 measured iteration(s) (exec.noop: 1)");
        String mdTop = markdown.substring(0, markdown.indexOf("## Results"));
        assertThat(mdTop.split("the agent stopped answering", -1)).as("page.md's first lines give the reason once").hasSize(2);
    }

    @Test
    void killingTheMeasuringDriverMidRunEndsTheRunFailedWithItsLastWordsAndKeepsItsSamples() throws Exception {
        long id = json(post("/api/runs", "{\"space\":{\"kind\":\"process\"}," + EXEC_FOREVER + "}")).get("id").asLong();
        awaitDone(id, 200);
        List<ProcessHandle> drivers = drivers();
        assertThat(drivers).as("driver processes of this app").hasSize(1);
        long pid = drivers.get(0).pid();
        drivers.get(0).destroyForcibly(); // SIGKILL

        JsonNode run = awaitFinished(id, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("FAILED");
        assertThat(run.get("failureReason").asString())
                .startsWith("the measuring driver (pid " + pid + ") died, killed by signal 9 (SIGKILL)")
                .contains("its last words: driver " + pid + ": measuring 127.0.0.1:");
        // What it sent before it died stands: at least the 200 iterations the progress showed.
        assertThat(result(run, "exec.noop").get("n").asInt()).isGreaterThanOrEqualTo(200);
        assertThat(drivers()).as("drivers left running").isEmpty();
    }

    /** The measuring drivers (issue 28) this test JVM's app started and that still run. */
    private static List<ProcessHandle> drivers() {
        return ProcessHandle.current().descendants()
                .filter(ProcessHandle::isAlive)
                .filter(p -> ChildApp.commandLine(p).contains(DriverProcess.DRIVER_MAIN))
                .toList();
    }

    @Test
    void killingTheAgentDuringTheFileLoopEndsTheRunFailed() throws Exception {
        long id = json(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[]},"
                + "\"files\":{\"sizes\":[{\"bytes\":4194304,\"n\":100000}],\"warmups\":0},\"floor\":{\"enabled\":false}}}"))
                .get("id").asLong();
        awaitDone(id, 5);
        killAgents();

        JsonNode run = awaitFinished(id, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("FAILED");
        assertThat(run.get("failureReason").asString()).startsWith("the agent stopped answering (")
                .containsPattern("during file\\.(upload|download)\\.4MiB iteration \\d+");
        assertThat(run.get("failedSamples").asInt()).isEqualTo(1);
        String page = get("/runs/" + id).body();
        String fileTable = page.substring(page.indexOf("id=\"file-table\""), page.indexOf("</table>", page.indexOf("id=\"file-table\"")));
        // The size's failed column counts the failed upload or download.
        assertThat(fileTable).containsPattern("<td class=\"num\">1</td>\\s*</tr>");
    }

    @Test
    void anErrorEndsTheRunFailedAndTheWorkerTakesTheNextRun() throws Exception {
        NativeKind.ARMED.set(true);
        long broken = json(post("/api/runs", "{\"space\":{\"kind\":\"" + NativeKind.KIND + "\"}," + EXEC_FOREVER + "}"))
                .get("id").asLong();
        JsonNode run = awaitFinished(broken, Duration.ofSeconds(60));
        assertThat(run.get("status").asString()).isEqualTo("FAILED");
        assertThat(run.get("failureReason").asString()).startsWith("a library this run needs could not be loaded: ")
                .contains(NativeKind.LIBRARY).doesNotContain("java.lang.");

        long next = json(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":5,"
                + "\"warmups\":0,\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}}")).get("id").asLong();
        assertThat(awaitFinished(next, Duration.ofSeconds(60)).get("status").asString()).isEqualTo("SUCCEEDED");
    }

    private void awaitDone(long id, long done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode run = json(get("/api/runs/" + id));
            if (run.get("progress").get("done").asLong() >= done) {
                return;
            }
            assertThat(run.get("status").asString()).as("run %d while waiting for it to measure", id).isIn("QUEUED", "RUNNING");
            Thread.sleep(20);
        }
        throw new AssertionError("run " + id + " never got to " + done + " iterations");
    }

    /** kill -9 of every agent of a process Space under this test's Spaces root. */
    private static void killAgents() {
        List<ProcessHandle> agents = ProcessHandle.allProcesses()
                .filter(p -> ChildApp.commandLine(p).contains("--work-dir " + SPACES))
                .toList();
        assertThat(agents).as("agent processes under " + SPACES).isNotEmpty();
        agents.forEach(ProcessHandle::destroyForcibly);
    }

    private static JsonNode result(JsonNode run, String metric) {
        for (JsonNode r : run.get("results")) {
            if (r.get("metric").asString().equals(metric)) {
                return r;
            }
        }
        throw new AssertionError("no result for " + metric + " in " + run);
    }

    /**
     * A kind whose Space needs a native library that is not there, as a Space whose transport
     * needs epoll does where it is missing: a real {@link UnsatisfiedLinkError} from the JDK when
     * armed, a process Space otherwise (so probing kinds at start finds it working).
     */
    @TestConfiguration
    static class NativeKind {
        static final String KIND = "needs-native";
        static final String LIBRARY = "spacebench-no-such-native-library";
        static final AtomicBoolean ARMED = new AtomicBoolean();

        @Bean
        SpaceProvider needsNativeKind() {
            return new ProcessSpaceProvider(SPACES) {
                // Qualified: inside this subclass a bare KIND is ProcessSpaceProvider's.
                @Override
                public String kind() {
                    return NativeKind.KIND;
                }

                @Override
                public Space create(Path root, SpaceSpec spec, Duration readyTimeout) throws SpaceException {
                    if (NativeKind.ARMED.getAndSet(false)) {
                        System.loadLibrary(NativeKind.LIBRARY);
                    }
                    return super.create(root, spec, readyTimeout);
                }
            };
        }
    }
}
