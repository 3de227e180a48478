package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One run measuring one process Space through the agent and through SSH (a real OpenSSH server in
 * the Space), side by side; and the request's {@code channels} refused with the field named.
 */
class ChannelsEndToEndTest extends AppTestSupport {

    @Test
    void oneRunMeasuresTheSameSpaceThroughTheAgentAndSsh() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        HttpResponse<String> created = post("/api/runs", """
                {"space": {"kind": "process"}, "channels": ["agent", "ssh"],
                 "plan": {"exec": {"metrics": ["noop", "true"], "n": 7, "warmups": 1, "agentWarmupCalls": 10}, "blockSize": 3,
                          "files": {"sizes": [{"bytes": 300000, "n": 2}], "warmups": 0},
                          "floor": {"enabled": false}}}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        List<String[]> rows = get("/api/runs/" + id + "/samples.csv").body().lines().skip(1).map(l -> l.split(",", -1)).toList();
        Map<String, Long> measuredOk = rows.stream().filter(f -> f[2].equals("measured") && f[5].equals("true"))
                .collect(Collectors.groupingBy(f -> f[0] + " " + f[10], Collectors.counting()));
        // Each channel's own ids and channel column, n each; the agent's ids as they always were.
        for (String channel : List.of("agent", "ssh")) {
            String prefix = channel.equals("agent") ? "" : "via.ssh.";
            assertThat(measuredOk).as(channel).containsEntry(prefix + "exec.noop " + channel, 7L)
                    .containsEntry(prefix + "exec.true " + channel, 7L)
                    .containsEntry(prefix + "file.upload.300000B " + channel, 2L)
                    .containsEntry(prefix + "file.download.300000B " + channel, 2L);
        }
        assertThat(rows).filteredOn(f -> f[0].startsWith("space.")).allMatch(f -> f[10].isEmpty());
        // Interleaved (the default), each channel's exec metrics in ⌈7 / 3⌉ = 3 blocks; seq runs on across
        // the channels: 1, 2, 3 … in the order the rows were stored, no number twice.
        List<String> header = List.of(get("/api/runs/" + id + "/samples.csv").body().lines().findFirst().orElseThrow().split(","));
        int blockAt = header.indexOf("block");
        int seqAt = header.indexOf("seq");
        Map<String, java.util.Set<String>> blocks = rows.stream().filter(f -> f[2].equals("measured") && f[0].contains("exec."))
                .collect(Collectors.groupingBy(f -> f[0], Collectors.mapping(f -> f[blockAt], Collectors.toSet())));
        assertThat(blocks).containsOnlyKeys("exec.noop", "exec.true", "via.ssh.exec.noop", "via.ssh.exec.true")
                .allSatisfy((series, b) -> assertThat(b).as(series).containsExactlyInAnyOrder("1", "2", "3"));
        List<Long> seqs = rows.stream().filter(f -> !f[seqAt].isEmpty()).map(f -> Long.parseLong(f[seqAt])).toList();
        assertThat(seqs).hasSize(2 * 2 * (7 + 1));
        for (int i = 0; i < seqs.size(); i++) {
            assertThat(seqs.get(i)).as("seq of the interleaved sample #%d", i + 1).isEqualTo(i + 1L);
        }
        // Nothing of the Space's sshd is left once the run ended.
        assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains("sshd") && c.contains(SPACES.toString()))).isEmpty();
    }

    @Test
    void channelsOutsideWhatIsKnownOrWhatTheKindServesAreRefusedNamingTheField() throws Exception {
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[\"telnet\"]}"),
                "channels", "each must be one of [agent, ssh, container-exec, command], was 'telnet'");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[\"ssh\",\"ssh\"]}"),
                "channels", "'ssh' was given twice");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[]}"),
                "channels", "must name at least one channel from [agent, ssh, container-exec, command]");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\",\"channels\":[\"ssh\"]}}"),
                "space.channels", "give \"channels\" at the top level");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"attach\",\"target\":\"127.0.0.1:1\",\"token\":\"t\"},\"channels\":[\"ssh\"]}"),
                "channels", "the attach kind cannot serve [ssh]; it serves [agent]");
        // container-exec is the container kind's; space.runtime too, and only runc or runsc (gVisor).
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[\"agent\",\"container-exec\"]}"),
                "channels", "the process kind cannot serve [container-exec]");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[\"agent\",\"container-exec\"]}"),
                "channels", "; container-exec: kinds [container]");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"container\",\"runtime\":\"kata\"}}"),
                "space.runtime", "must be one of [runc, runsc] (default runc), was 'kata'");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\",\"runtime\":\"runsc\"}}"),
                "space.runtime", "does not apply to kind 'process'; it applies to [container]");
        HttpResponse<String> sshOnly = post("/api/runs", "{\"space\":{\"kind\":\"process\"},\"channels\":[\"ssh\"]}");
        if (Files.isExecutable(Path.of("/usr/sbin/sshd"))) {
            // An interleaved run (the default order) times its floor between the agent channel's blocks.
            assertProblem(sshOnly, "channels", "an interleaved run with a floor measures its floor beside the agent channel: add \"agent\"");
        } else {
            // On a host without sshd the kind's refusal comes first and names the package that brings it.
            assertProblem(sshOnly, "channels", "(ssh: /usr/sbin/sshd is missing (Debian package openssh-server))");
        }
    }

    @Test
    void kindsThatCannotHostSshdSayWhyInA400OnChannelsAndTheVmKindServesSsh() throws Exception {
        HttpResponse<String> sandbox = post("/api/runs", "{\"space\":{\"kind\":\"sandbox\"},\"channels\":[\"agent\",\"ssh\"]}");
        assertProblem(sandbox, "channels", "the sandbox kind cannot serve [ssh]; it serves [agent] (ssh: not available: the sandbox has no "
                + "network (bwrap --unshare-all");
        if (Files.isExecutable(Path.of("/usr/sbin/sshd"))) {
            // The kinds that start an sshd of their own: the vm kind's runs in its guest, reached through a QEMU host forward.
            assertProblem(sandbox, "channels", "; ssh: kinds [container, process, vm]");
        }
    }

    private static void assertProblem(HttpResponse<String> response, String field, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode errors = json(response).get("errors");
        List<String> fields = errors.findValuesAsString("field");
        assertThat(fields).as(response.body()).contains(field);
        assertThat(errors.get(fields.indexOf(field)).get("message").asString()).contains(message);
    }
}
