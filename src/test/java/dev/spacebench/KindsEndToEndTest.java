package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.space.KindChecks;
import dev.spacebench.space.KindStatus;
import dev.spacebench.space.vm.VmSpaceProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A small plan through the whole app for every kind of Space that can run on this machine:
 * POST, the worker, the Space, both file lanes, the page, and nothing left behind afterwards.
 * A kind that cannot run here is skipped with the reason its provider gives. The app's log says
 * the run's end in one line, and nothing per connection (no Unknown channel option on unix sockets).
 */
class KindsEndToEndTest extends AppTestSupport {

    private static final String PLAN = """
            {"space": {"kind": "%s"},
             "plan": {"exec": {"n": 10, "warmups": 1, "agentWarmupCalls": 50},
                      "files": {"sizes": [{"bytes": 1048576, "n": 1}, {"bytes": 4194304, "n": 1}], "warmups": 0},
                      "floor": {"enabled": false}}}""";

    @Autowired
    KindChecks checks;
    @Autowired
    VmSpaceProvider vm;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"process", "sandbox", "container", "vm"})
    void aSmallPlanRunsAndLeavesNothingBehind(String kind) throws Exception {
        if (kind.equals("vm")) {
            String wanted = System.getenv().getOrDefault("SPACEBENCH_TEST_VM", "");
            assumeTrue(vm.useKvm() || wanted.equals("tcg"),
                    "vm: no usable KVM; under emulation set SPACEBENCH_TEST_VM=tcg to run it (about a minute)");
        }
        KindStatus availability = checks.await(kind, Duration.ofMinutes(3));
        assumeTrue(availability.passed(), () -> kind + " cannot run here: " + availability.reasonAndFix());
        JsonNode run;
        long id;
        try (LogEvents events = new LogEvents()) {
            id = json(post("/api/runs", PLAN.formatted(kind))).get("id").asLong();
            run = awaitFinished(id, Duration.ofMinutes(kind.equals("vm") ? 5 : 2));
            // One line per event: the run's end once, no warning per unix-socket connection, no stack trace.
            assertThat(events.lines()).as("the app's log during the run")
                    .noneMatch(e -> e.contains("Unknown channel option") || e.contains("SO_KEEPALIVE") || e.contains("stack trace"))
                    .filteredOn(e -> e.endsWith("run " + id + " SUCCEEDED")).hasSize(1);
        }
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        JsonNode upload = null;
        for (JsonNode r : run.get("results")) {
            if (r.get("metric").asString().equals("file.upload.4MiB")) {
                upload = r;
            }
        }
        assertThat(upload).isNotNull();
        assertThat(upload.get("lane").asString()).isEqualTo("bulk");
        assertThat(upload.get("n").asInt()).isEqualTo(1);
        assertThat(get("/runs/" + id).body()).contains(kind + " Space");

        assertNothingLeft(kind);
    }

    private void assertNothingLeft(String kind) throws IOException, InterruptedException {
        try (Stream<java.nio.file.Path> left = Files.list(SPACES)) {
            assertThat(left.toList()).as("Space directories left behind").isEmpty();
        }
        List<String> processes = ProcessHandle.allProcesses()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(cmd -> cmd.contains(SPACES.toString()))
                .toList();
        assertThat(processes).as("processes of a Space left behind").isEmpty();
        if (kind.equals("container")) {
            Process ps = new ProcessBuilder("podman", "ps", "-a", "--format", "{{.Names}}").redirectErrorStream(true).start();
            String names = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ps.waitFor(30, TimeUnit.SECONDS);
            assertThat(names).as("containers left behind").doesNotContain("spacebench");
        }
    }
}
