package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spacebench.space.local.HostRoot;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Operator-defined command targets (issue 27, point 5) through the whole app: a run names a target
 * of {@code spacebench.targets-file} and is measured through its commands (create, exec, files,
 * delete), its figures recomputed from samples.csv; a request can only name one.
 */
class CommandTargetsEndToEndTest extends AppTestSupport {

    private static final Path TARGETS;
    private static final Path SKELETON;

    static {
        try {
            Path dir = Files.createTempDirectory("spacebench-targets-");
            SKELETON = dir.resolve("rootfs");
            TARGETS = dir.resolve("targets.yaml");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void targets(DynamicPropertyRegistry registry) throws IOException {
        HostRoot.skeleton(SKELETON);
        // A Space of coreutils alone (a directory of its own), one that cannot move files, and podman with the host's /usr as root.
        Files.writeString(TARGETS, """
                targets:
                  local-dir:
                    create: [mktemp, -d]
                    exec: {argv: [env, -C, "{id}", "{argv}"], timeout: 30s}
                    upload: [cp, "{local}", "{remote}"]
                    download: [cp, "{remote}", "{local}"]
                    delete: [rm, -rf, "{id}"]
                    workDir: "{id}/work"
                  exec-only:
                    exec: [env, "{argv}"]
                  podman:
                    create:
                      argv: [podman, run, --detach, --rm, --network, none, --ulimit, "nofile=%1$s", --ulimit, "nproc=%2$s",
                             -v, "/usr:/usr:ro", --rootfs, "%3$s:O", sleep, infinity]
                      timeout: 120s
                    exec: [podman, exec, "{id}", "{argv}"]
                    upload: [podman, cp, "{local}", "{id}:{remote}"]
                    download: [podman, cp, "{id}:{remote}", "{local}"]
                    delete: [podman, rm, --force, --time, "0", "{id}"]
                    workDir: /tmp
                """.formatted(limit("Max open files", Long.MAX_VALUE), limit("Max processes", pidMax()), SKELETON));
        registry.add("spacebench.targets-file", TARGETS::toString);
    }

    @Test
    void aCoreutilsTargetRunsEndToEndAndItsFiguresRecomputeFromSamplesCsv() throws Exception {
        long id = created(post("/api/runs", """
                {"space": {"kind": "command", "name": "local-dir"},
                 "plan": {"exec": {"metrics": ["noop", "true", "sh_c"], "n": 9, "warmups": 1, "agentWarmupCalls": 10}, "blockSize": 3,
                          "files": {"sizes": [{"bytes": 200000, "n": 3}], "warmups": 0},
                          "floor": {"n": 12, "warmups": 1}}}"""));
        JsonNode run = awaitFinished(id, Duration.ofMinutes(4));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        List<String[]> rows = rows(id);
        Map<String, Long> measuredOk = rows.stream().filter(f -> f[2].equals("measured") && f[5].equals("true"))
                .collect(Collectors.groupingBy(f -> f[0] + " " + f[10], Collectors.counting()));
        assertThat(measuredOk).containsEntry("via.command.exec.true command", 9L).containsEntry("via.command.exec.sh_c command", 9L)
                .containsEntry("via.command.file.upload.200000B command", 3L).containsEntry("via.command.file.download.200000B command", 3L)
                .containsEntry("space.ready ", 1L).containsEntry("space.delete ", 1L);
        // No-op: a command target has none; nothing of the agent's; the floor's blocks ran among the command channel's.
        assertThat(measuredOk.keySet()).noneMatch(k -> k.contains("noop") && k.startsWith("via.")).noneMatch(k -> k.startsWith("exec."));
        assertThat(measuredOk.keySet()).anyMatch(k -> k.startsWith("floor."));
        assertPythonRecomputes(id);

        JsonNode space = json(get("/api/runs/" + id + "/result.json")).get("environment").get("space");
        assertThat(space.get("not measured: via.command.exec.noop").asString()).contains("no round trip that runs nothing");
        assertThat(space.get("target exec").asString()).isEqualTo("env -C {id} {argv} (timeout 30000 ms)");
        String dir = space.get("target id").asString();
        assertThat(dir).startsWith("/tmp");
        assertThat(Path.of(dir)).as("the target's delete ran").doesNotExist();
        // The method on the run's page names the target's commands as the file has them.
        assertThat(get("/runs/" + id).body()).contains("env -C {id} {argv}").contains("cp {remote} {local}");
    }

    @Test
    void aPodmanTargetRunsEndToEndCreateExecFilesDelete() throws Exception {
        assumeTrue(podmanRuns(), "podman cannot run a container here: install the Debian packages podman and runc");
        long id = created(post("/api/runs", """
                {"space": {"kind": "command", "name": "podman"},
                 "plan": {"exec": {"metrics": ["true"], "n": 5, "warmups": 1, "agentWarmupCalls": 10},
                          "files": {"sizes": [{"bytes": 100000, "n": 2}], "warmups": 0}, "floor": {"enabled": false}}}"""));
        JsonNode run = awaitFinished(id, Duration.ofMinutes(4));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        Map<String, Long> measuredOk = rows(id).stream().filter(f -> f[2].equals("measured") && f[5].equals("true"))
                .collect(Collectors.groupingBy(f -> f[0], Collectors.counting()));
        assertThat(measuredOk).containsEntry("via.command.exec.true", 5L).containsEntry("via.command.file.upload.100000B", 2L)
                .containsEntry("via.command.file.download.100000B", 2L);
        assertPythonRecomputes(id);
        String container = json(get("/api/runs/" + id + "/result.json")).get("environment").get("space").get("target id").asString();
        assertThat(container).matches("[0-9a-f]{64}");
        Process ps = new ProcessBuilder("podman", "ps", "-aq", "--no-trunc").redirectErrorStream(true).start();
        assertThat(new String(ps.getInputStream().readAllBytes())).as("the container was removed").doesNotContain(container);
        // No podman exec or cp of this run is left.
        assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse("")).filter(c -> c.contains(container))).isEmpty();
    }

    @Test
    void targetsAreListedWithTheirCommandsAndTimeoutsOnly() throws Exception {
        JsonNode targets = json(get("/api/targets")).get("targets");
        assertThat(targets.findValuesAsString("name")).containsExactly("local-dir", "exec-only", "podman");
        JsonNode local = targets.get(0);
        assertThat(local.get("commands").toString()).isEqualTo("[\"create\",\"exec\",\"upload\",\"download\",\"delete\"]");
        assertThat(local.get("timeoutsMs").get("exec").asLong()).isEqualTo(30_000);
        assertThat(local.get("timeoutsMs").get("create").asLong()).isEqualTo(120_000);
        assertThat(local.get("files").asBoolean()).isTrue();
        assertThat(targets.get(1).get("files").asBoolean()).isFalse();
        assertThat(get("/api/targets").body()).doesNotContain("mktemp").doesNotContain("argv");
        JsonNode kinds = json(get("/api/kinds")).get("kinds");
        assertThat(kinds.findValuesAsString("kind")).contains("command");
    }

    @Test
    void aRequestNamesATargetAndNothingElse() throws Exception {
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"nope\"}}"), "space.name",
                "no target 'nope' in the targets file " + TARGETS + "; the targets are [local-dir, exec-only, podman]");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\"}}"), "space.name", "is required for kind command");
        HttpResponse<String> extra = post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"local-dir\",\"exec\":[\"sh\"]}}");
        assertThat(extra.statusCode()).as(extra.body()).isEqualTo(400);
        assertThat(extra.body()).contains("exec");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"exec-only\"},"
                + "\"plan\":{\"files\":{\"sizes\":[{\"bytes\":1024,\"n\":2}]}}}"), "plan.files.sizes",
                "target 'exec-only' has no upload command in the targets file");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"local-dir\"},\"channels\":[\"agent\"]}"),
                "channels", "the command kind cannot serve [agent]");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"local-dir\",\"cpus\":1}}"),
                "space.cpus", "does not apply to kind 'command'");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"process\",\"name\":\"local-dir\"}}"),
                "space.name", "does not apply to kind 'process'");
        assertProblem(post("/api/runs", "{\"space\":{\"kind\":\"command\",\"name\":\"local-dir\"},\"plan\":{\"concurrency\":"
                + "{\"levels\":[1,2]}}}"), "plan.concurrency", "cannot sweep the command kind");
    }

    @Test
    void aTargetWithoutFilesHasItsDefaultFileMetricsSkippedWithTheReason() throws Exception {
        long id = created(post("/api/runs", """
                {"space": {"kind": "command", "name": "exec-only"},
                 "plan": {"exec": {"metrics": ["true"], "n": 3, "warmups": 0, "agentWarmupCalls": 0}, "floor": {"enabled": false}}}"""));
        JsonNode run = awaitFinished(id, Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        JsonNode space = json(get("/api/runs/" + id + "/result.json")).get("environment").get("space");
        List<String> skipped = new ArrayList<>();
        space.propertyNames().forEach(name -> {
            if (name.startsWith("not measured: via.command.file.")) {
                skipped.add(space.get(name).asString());
            }
        });
        assertThat(skipped).isNotEmpty().allMatch(why -> why.equals("target 'exec-only' defines no upload command in the targets file"));
    }

    @Test
    void theDashboardFormOffersTheTargetsAndTheChannelsTheChosenKindServes() throws Exception {
        String command = get("/?kind=command&name=podman").body();
        assertThat(command).containsPattern("<option value=\"local-dir\">local-dir</option>")
                .containsPattern("<option value=\"exec-only\">exec-only</option>")
                .containsPattern("<option value=\"podman\" selected=\"selected\">podman</option>");
        assertThat(checkbox(command, "command")).contains("checked").doesNotContain("disabled");
        assertThat(checkbox(command, "agent")).contains("disabled").doesNotContain("checked");
        String process = get("/?kind=process").body();
        assertThat(checkbox(process, "agent")).contains("checked").doesNotContain("disabled");
        assertThat(checkbox(process, "command")).contains("disabled");

        // Submitted from an unlocked browser session (its CSRF field): the run names the target.
        BrowserSession browser = unlockedBrowser();
        HttpResponse<String> submitted = browser.submit("/", "/runs", Map.of("kind", "command", "name", "local-dir", "channels", "command",
                "execN", "3", "execWarmups", "0", "metrics", "true", "fileSizes", "", "fileWarmups", "0", "floor", "off"));
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(303);
        String location = submitted.headers().firstValue("Location").orElseThrow();
        long id = Long.parseLong(location.replaceAll(".*queued=(\\d+).*", "$1"));
        JsonNode run = awaitFinished(id, Duration.ofMinutes(3));
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");
        assertThat(run.get("space").get("name").asString()).isEqualTo("local-dir");
        // A target the file does not have comes back beside its input.
        HttpResponse<String> unknown = browser.submit("/", "/runs", Map.of("kind", "command", "name", "nope", "execN", "3"));
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).containsPattern("id=\"error-name\"[^>]*>no target &#39;nope&#39;");
    }

    /** The channel's checkbox input as the page has it. */
    private static String checkbox(String page, String channel) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<input type=\"checkbox\" name=\"channels\" value=\"" + channel
                + "\"[^>]*>").matcher(page);
        assertThat(m.find()).as("a checkbox for channel " + channel).isTrue();
        return m.group();
    }

    private long created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return json(response).get("id").asLong();
    }

    private List<String[]> rows(long id) throws Exception {
        return get("/api/runs/" + id + "/samples.csv").body().lines().skip(1).map(l -> l.split(",", -1)).toList();
    }

    /** check_result.py (Python's standard library alone) lands on result.json's figures from samples.csv, to the ns. */
    private void assertPythonRecomputes(long id) throws Exception {
        Path dir = Files.createTempDirectory("spacebench-check-");
        Path csv = Files.writeString(dir.resolve("samples.csv"), get("/api/runs/" + id + "/samples.csv").body());
        Path json = Files.writeString(dir.resolve("result.json"), get("/api/runs/" + id + "/result.json").body());
        Process python = new ProcessBuilder("python3", "src/test/python/check_result.py", csv.toString(), json.toString())
                .redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes());
        assertThat(python.waitFor()).as(output).isZero();
        assertThat(output.strip()).endsWith("passed, 0 failed");
    }

    private static void assertProblem(HttpResponse<String> response, String field, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode errors = json(response).get("errors");
        List<String> fields = errors.findValuesAsString("field");
        assertThat(fields).as(response.body()).contains(field);
        assertThat(errors.get(fields.indexOf(field)).get("message").asString()).contains(message);
    }

    private static boolean podmanRuns() throws Exception {
        try {
            Process info = new ProcessBuilder("podman", "info").redirectErrorStream(true).start();
            info.getInputStream().readAllBytes();
            return info.waitFor(60, TimeUnit.SECONDS) && info.exitValue() == 0;
        } catch (IOException missing) {
            return false;
        }
    }

    /** This process's own soft:hard limit (podman as root otherwise asks for more than a host without CAP_SYS_RESOURCE gives). */
    private static String limit(String name, long cap) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith(name)) {
                String[] f = line.substring(name.length()).trim().split("\\s+");
                return Math.min(value(f[0], cap), cap) + ":" + Math.min(value(f[1], cap), cap);
            }
        }
        return cap + ":" + cap;
    }

    private static long value(String text, long cap) {
        return text.equals("unlimited") ? cap : Long.parseLong(text);
    }

    private static long pidMax() throws IOException {
        return Long.parseLong(Files.readString(Path.of("/proc/sys/kernel/pid_max")).strip());
    }
}
