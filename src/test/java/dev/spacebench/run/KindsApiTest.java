package dev.spacebench.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spacebench.AppTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** GET /api/kinds and POST /api/kinds/check on this host, where process Spaces can always be made. */
class KindsApiTest extends AppTestSupport {

    @Test
    void everyKindIsCheckedByMakingOneAndCheckedAgainOnDemand() throws Exception {
        Map<String, JsonNode> first = awaitAllChecked();
        assertThat(first.keySet()).contains("process", "sandbox", "container", "vm", "attach");
        // The tests check vm on demand only (AppTestSupport): unless a test has asked for it, it says so.
        JsonNode vm = first.get("vm");
        if (vm.get("available").isNull()) {
            assertThat(vm.get("reason").asString()).startsWith("not checked yet (spacebench.space.check-on-demand)");
        }
        JsonNode process = first.get("process");
        assertThat(process.get("available").asBoolean()).as(process.toString()).isTrue();
        assertThat(process.get("reason").asString()).isEmpty();
        Instant firstCheck = Instant.parse(process.get("checkedAt").asString());
        first.values().stream().filter(k -> k.get("available").isBoolean() && !k.get("available").asBoolean()).forEach(k ->
                assertThat(k.get("reason").asString()).as("an unavailable kind says why: %s", k).isNotBlank());
        String expectedDefault = first.get("sandbox").get("available").asBoolean() ? "sandbox" : "process";
        assertThat(json(get("/api/kinds")).get("defaultKind").asString()).isEqualTo(expectedDefault);

        HttpResponse<String> again = post("/api/kinds/check", "");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
        // The answer is made as the checks start: process's check (a JVM to start) has not ended yet.
        JsonNode checking = byKind(json(again)).get("process");
        assertThat(checking.get("available").isNull()).as(checking.toString()).isTrue();
        assertThat(checking.get("checkedAt").isNull()).isTrue();

        JsonNode rechecked = awaitAllChecked().get("process");
        assertThat(rechecked.get("available").asBoolean()).isTrue();
        assertThat(Instant.parse(rechecked.get("checkedAt").asString())).isAfter(firstCheck);
    }

    @Test
    void eachKindSaysWhichChannelsItServesAndWhyNotTheOthers() throws Exception {
        JsonNode channels = json(get("/api/kinds")).get("channels");
        assertThat(channels.get("sandbox").get("agent").asString()).isEqualTo("available");
        assertThat(channels.get("sandbox").get("ssh").asString()).startsWith("not available: the sandbox kind cannot serve [ssh]")
                .contains("the sandbox has no network");
        assertThat(channels.get("process").get("container-exec").asString())
                .isEqualTo("not available: the process kind cannot serve [container-exec]; it serves [agent, ssh]".replace(
                        ", ssh", java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/sbin/sshd")) ? ", ssh" : ""));
        assertThat(channels.get("command").get("agent").asString()).startsWith("not available: ");
        if (java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/sbin/sshd"))) {
            // The vm kind's guest runs the host's sshd, reached through a QEMU host forward.
            assertThat(channels.get("vm").get("ssh").asString()).isEqualTo("available");
            assertThat(channels.get("process").get("ssh").asString()).isEqualTo("available");
        }
    }

    private Map<String, JsonNode> awaitAllChecked() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        Map<String, JsonNode> kinds;
        do {
            kinds = byKind(json(get("/api/kinds")));
            if (kinds.values().stream().noneMatch(KindsApiTest::beingChecked)) {
                return kinds;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("kinds still being checked after 4 minutes: " + kinds);
    }

    /** Being checked: no result and no reason (a kind checked on demand and not asked for yet has a reason). */
    private static boolean beingChecked(JsonNode kind) {
        return kind.get("available").isNull() && kind.get("reason").asString().isEmpty();
    }

    private static Map<String, JsonNode> byKind(JsonNode body) {
        Map<String, JsonNode> kinds = new HashMap<>();
        body.get("kinds").forEach(k -> kinds.put(k.get("kind").asString(), k));
        return kinds;
    }
}
