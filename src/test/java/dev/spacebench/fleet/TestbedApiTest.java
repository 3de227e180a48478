package dev.spacebench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** One app (H2) is a fleet of one: its worker registers its testbed, and runs can name it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TestbedApiTest extends AppTestSupport {

    @Autowired
    WorkerIdentity identity;

    @Test
    void theAppsOwnWorkerIsListedWithThisHostsFactsAndKinds() throws Exception {
        JsonNode me = awaitProcessKind();
        assertThat(me.get("testbed").asString()).isEqualTo(identity.testbed());
        assertThat(me.get("live").asBoolean()).isTrue();
        // Read here independently of the app: /proc and the JVM.
        assertThat(me.get("facts").get("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        long memTotalKiB = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElseThrow();
        assertThat(me.get("facts").get("memoryBytes").asLong()).isEqualTo(memTotalKiB * 1024);
        assertThat(me.get("facts").get("kernel").asString()).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        Path kvm = Path.of("/dev/kvm");
        assertThat(me.get("facts").get("kvm").asBoolean()).isEqualTo(Files.isReadable(kvm) && Files.isWritable(kvm));
    }

    @Test
    void aRunNamingThisTestbedRunsHereAndTheListFiltersByTestbed() throws Exception {
        awaitProcessKind();
        HttpResponse<String> created = post("/api/runs", """
                {"testbed": "%s", "space": {"kind": "process"},
                 "plan": {"exec": {"metrics": ["noop"], "n": 5, "warmups": 0, "agentWarmupCalls": 1},
                          "files": {"sizes": []}, "floor": {"enabled": false}}}""".formatted(identity.testbed()));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofMinutes(2));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(run.get("testbed").asString()).isEqualTo(identity.testbed());
        assertThat(run.get("worker").asString()).isEqualTo(identity.workerId());

        assertThat(ids(json(get("/api/runs?size=200&testbed=" + identity.testbed())))).contains(id);
        assertThat(ids(json(get("/api/runs?size=200&testbed=some-other-box")))).doesNotContain(id);
        assertThat(get("/api/runs?testbed=not%20a%20name").statusCode()).isEqualTo(400);
        assertThat(get("/runs/" + id).body()).contains("Testbed", identity.testbed());
        assertThat(get("/runs?testbed=" + identity.testbed()).body()).contains("/runs/" + id);
    }

    @Test
    void aTestbedWithoutALiveWorkerIsRefusedNamingTheOnesThatAre() throws Exception {
        awaitProcessKind();
        HttpResponse<String> refused = post("/api/runs", """
                {"testbed": "elsewhere", "space": {"kind": "process"}, "plan": {"exec": {"n": 5}}}""");
        assertThat(refused.statusCode()).isEqualTo(400);
        JsonNode error = json(refused).get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("testbed");
        assertThat(error.get("message").asString()).contains(identity.testbed() + " makes ", "process", "'elsewhere'");

        HttpResponse<String> badName = post("/api/runs", """
                {"testbed": "no spaces/allowed", "space": {"kind": "process"}}""");
        assertThat(badName.statusCode()).isEqualTo(400);
        assertThat(json(badName).get("errors").get(0).get("message").asString()).contains("1 to 64 letters");
    }

    private JsonNode awaitProcessKind() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            for (JsonNode worker : json(get("/api/workers"))) {
                if (worker.get("id").asString().equals(identity.workerId())
                        && StreamSupport.stream(worker.get("kinds").spliterator(), false).anyMatch(k -> k.asString().equals("process"))) {
                    return worker;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("this app's worker never listed the process kind: " + get("/api/workers").body());
            }
            Thread.sleep(200);
        }
    }

    private static java.util.List<Long> ids(JsonNode page) {
        return StreamSupport.stream(page.get("content").spliterator(), false).map(r -> r.get("id").asLong()).toList();
    }
}
