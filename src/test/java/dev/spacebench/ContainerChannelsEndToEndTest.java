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
 * One run on one real podman container Space measured through the agent, the engine's own exec and
 * cp ({@code container-exec}) and SSH to an sshd in the container, side by side; its figures
 * recomputed from samples.csv by the independent Python check. (What a request may not ask for,
 * runtimes and channels, is in {@link ChannelsEndToEndTest}.)
 */
class ContainerChannelsEndToEndTest extends AppTestSupport {

    @Test
    void oneContainerRunMeasuresTheAgentContainerExecAndSsh() throws Exception {
        assumeTrue(dev.spacebench.space.local.Executables.onPath("podman").isPresent(),
                "podman is missing: install the Debian packages podman and runc");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is missing: install the Debian package openssh-server");
        HttpResponse<String> created = post("/api/runs", """
                {"space": {"kind": "container"}, "channels": ["agent", "container-exec", "ssh"],
                 "plan": {"exec": {"metrics": ["noop", "sh_c"], "n": 4, "warmups": 1, "agentWarmupCalls": 10}, "blockSize": 2,
                          "files": {"sizes": [{"bytes": 100000, "n": 2}], "warmups": 0},
                          "floor": {"enabled": false}}}""");
        if (created.statusCode() == 400 && created.body().contains("space.kind")) {
            assumeTrue(false, "the container kind cannot run here: " + created.body());
        }
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("id").asLong();
        JsonNode run = awaitFinished(id, Duration.ofMinutes(6));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        List<String> lines = get("/api/runs/" + id + "/samples.csv").body().lines().toList();
        List<String> header = List.of(lines.get(0).split(","));
        int channelAt = header.indexOf("channel");
        Map<String, Long> measuredOk = lines.stream().skip(1).map(l -> l.split(",", -1))
                .filter(f -> f[2].equals("measured") && f[5].equals("true"))
                .collect(Collectors.groupingBy(f -> f[0] + " " + f[channelAt], Collectors.counting()));
        assertThat(measuredOk).containsEntry("exec.noop agent", 4L).containsEntry("exec.sh_c agent", 4L)
                .containsEntry("file.upload.100000B agent", 2L)
                .containsEntry("via.ssh.exec.noop ssh", 4L).containsEntry("via.ssh.exec.sh_c ssh", 4L)
                .containsEntry("via.ssh.file.download.100000B ssh", 2L)
                .containsEntry("via.container-exec.exec.sh_c container-exec", 4L)
                .containsEntry("via.container-exec.file.upload.100000B container-exec", 2L)
                .containsEntry("via.container-exec.file.download.100000B container-exec", 2L);
        // podman exec has no round trip that runs nothing: skipped, never a zero.
        assertThat(measuredOk.keySet()).noneMatch(k -> k.startsWith("via.container-exec.exec.noop"));

        // Every figure of result.json, the container-exec and ssh ones included, recomputed from samples.csv.
        Path dir = Files.createTempDirectory("spacebench-check-");
        Path csv = Files.writeString(dir.resolve("samples.csv"), String.join("\n", lines) + "\n");
        Path result = Files.writeString(dir.resolve("result.json"), get("/api/runs/" + id + "/result.json").body());
        Process python = new ProcessBuilder("python3", "src/test/python/check_result.py", csv.toString(), result.toString())
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes());
        assertThat(python.waitFor()).as(output).isZero();
        assertThat(output.strip()).matches("\\d+ passed, 0 failed");
        JsonNode space = json(get("/api/runs/" + id + "/result.json")).get("environment").get("space");
        assertThat(space.toString()).contains("runc (podman's default)").contains("published on 127.0.0.1:");

        // Nothing left of this run's container: not the container, no podman exec into it, no process naming it.
        java.util.regex.Matcher name = java.util.regex.Pattern.compile("spacebench-container-\\d+").matcher(space.toString());
        assertThat(name.find()).as(space.toString()).isTrue();
        Process ps = new ProcessBuilder("podman", "ps", "-a", "--format", "{{.Names}}").redirectErrorStream(true).start();
        String containers = new String(ps.getInputStream().readAllBytes());
        assertThat(ps.waitFor()).as(containers).isZero();
        assertThat(containers.lines().toList()).doesNotContain(name.group());
        assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse("")).filter(c -> c.contains(name.group()))).isEmpty();
    }
}
