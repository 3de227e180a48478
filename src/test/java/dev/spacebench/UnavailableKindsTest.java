package dev.spacebench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Hosts where bwrap is installed but a sandbox cannot run: the app, as a real child JVM, must
 * report sandbox unavailable with the reason and fix (GET /api/kinds, the dashboard), fall back to
 * process for a run that names no kind (and that run succeeds), and refuse a run that asks for
 * sandbox with a 400 naming the reason; never offer it and then fail.
 */
class UnavailableKindsTest {

    private static final String TINY_PLAN = "\"plan\":{\"exec\":{\"metrics\":[\"noop\"],\"n\":3,\"warmups\":0,"
            + "\"agentWarmupCalls\":0},\"files\":{\"sizes\":[]},\"floor\":{\"enabled\":false}}";

    @TempDir
    Path temp;

    /** Netty's native transport switched off: no epoll, so no unix-socket channel can be opened. */
    @Test
    void withoutEpollUnixSocketKindsAreUnavailableAndProcessIsTheDefault() throws Exception {
        assumeTrue(onPath("bwrap"), "needs bwrap on PATH (apt-get install bubblewrap), so that only epoll stops the sandbox");
        // container is checked (it must come out unavailable too); vm is not asked about.
        try (ChildApp app = ChildApp.start(temp, List.of(), List.of("-Dio.grpc.netty.shaded.io.netty.transport.noNative=true"),
                List.of("--spacebench.space.check-on-demand=vm"))) {
            assertFallsBackToProcess(app, "epoll transport is unavailable");

            JsonNode sandbox = awaitChecked(app, "sandbox");
            assertThat(sandbox.get("available").asBoolean()).as(sandbox.toString()).isFalse();
            assertThat(sandbox.get("reason").asString()).contains("unix socket").contains("epoll transport is unavailable")
                    .as("no exception class names, the property as this app reads it")
                    .doesNotContain("java.lang.").doesNotContain("Exception")
                    .contains("-Dio.grpc.netty.shaded.io.netty.transport.noNative=true");
            assertThat(sandbox.get("fix").asString()).contains("noNative");
            assertThat(awaitChecked(app, "container").get("available").asBoolean()).as("container (unix socket too)").isFalse();
            assertThat(app.get("/api/kinds").get("defaultKind").asString()).isEqualTo("process");

            HttpResponse<String> attachUnix = app.send("/api/runs", "{\"space\":{\"kind\":\"attach\",\"target\":"
                    + "\"unix:" + temp.resolve("agent.sock") + "\",\"token\":\"t\"}," + TINY_PLAN + "}");
            assertThat(attachUnix.statusCode()).as(attachUnix.body()).isEqualTo(400);
            assertThat(attachUnix.body()).contains("\"field\":\"space.target\"").contains("unix: targets cannot be used here");
        }
    }

    /**
     * User namespaces off: the app runs in a user namespace whose {@code user.max_user_namespaces}
     * is 0 (the sysctl is per user namespace), so bwrap cannot make its own.
     */
    @Test
    void withoutUserNamespacesSandboxIsUnavailableWithTheSysctlToSet() throws Exception {
        assumeTrue(onPath("bwrap"), "needs bwrap on PATH (apt-get install bubblewrap)");
        assumeTrue(onPath("unshare"), "needs unshare on PATH (util-linux)");
        List<String> noUserNamespaces = List.of("unshare", "--user", "--map-root-user", "sh", "-c",
                "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\"");
        Process trial = new ProcessBuilder("unshare", "--user", "--map-root-user", "sh", "-c",
                "echo 0 > /proc/sys/user/max_user_namespaces").redirectErrorStream(true).start();
        boolean ended = trial.waitFor(30, TimeUnit.SECONDS);
        String said = new String(trial.getInputStream().readAllBytes()).strip();
        assumeTrue(ended && trial.exitValue() == 0, () -> "this host cannot make a user namespace with max_user_namespaces 0 "
                + "(unshare --user --map-root-user needs user namespaces allowed for this user): " + said);

        // Only sandbox and process matter here: a podman container and a vm checked at start would only cost CPU.
        try (ChildApp app = ChildApp.start(temp, noUserNamespaces, List.of(), List.of("--spacebench.space.check-on-demand=container,vm"))) {
            // First, as a user would: a run without a kind, right after start (it waits for sandbox's check).
            assertFallsBackToProcess(app, "user.max_user_namespaces is 0");

            JsonNode sandbox = awaitChecked(app, "sandbox");
            assertThat(sandbox.get("available").asBoolean()).as(sandbox.toString()).isFalse();
            assertThat(sandbox.get("reason").asString()).isEqualTo("bwrap cannot create a user namespace: user.max_user_namespaces is 0");
            assertThat(sandbox.get("fix").asString()).contains("set sysctl user.max_user_namespaces=15000");
            assertThat(sandbox.get("checkedAt").isNull()).isFalse();
            assertThat(app.get("/api/kinds").get("defaultKind").asString()).isEqualTo("process");

            String dashboard = app.response("/").body();
            assertThat(dashboard).contains("<option value=\"sandbox\" disabled=\"disabled\">sandbox (unavailable)</option>")
                    .contains("<option value=\"process\" selected=\"selected\">process</option>")
                    .contains("bwrap cannot create a user namespace: user.max_user_namespaces is 0")
                    .contains("set sysctl user.max_user_namespaces=15000");
        }
    }

    /** A run without a kind is a process run that succeeds; a run asking for sandbox is refused, naming why. */
    private static void assertFallsBackToProcess(ChildApp app, String reason) throws Exception {
        HttpResponse<String> created = app.send("/api/runs", "{" + TINY_PLAN + "}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = ChildApp.json(created).get("id").asLong();
        JsonNode run = awaitFinished(app, id);
        assertThat(run.get("kind").asString()).isEqualTo("process");
        assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("SUCCEEDED");

        HttpResponse<String> refused = app.send("/api/runs", "{\"space\":{\"kind\":\"sandbox\"}," + TINY_PLAN + "}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("\"field\":\"space.kind\"").contains("'sandbox' is not available on this host")
                .contains(reason);
    }

    private static JsonNode awaitChecked(ChildApp app, String kind) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        JsonNode found = null;
        while (System.nanoTime() < deadline) {
            for (JsonNode k : app.get("/api/kinds").get("kinds")) {
                if (k.get("kind").asString().equals(kind)) {
                    found = k;
                }
            }
            assertThat(found).as("kind %s in GET /api/kinds", kind).isNotNull();
            if (!found.get("available").isNull()) {
                return found;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("kind " + kind + " was still being checked after 3 minutes: " + found + "\n" + app.tail());
    }

    private static JsonNode awaitFinished(ChildApp app, long id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        JsonNode run = null;
        while (System.nanoTime() < deadline) {
            run = app.get("/api/runs/" + id);
            String status = run.get("status").asString();
            if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
                return run;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("run " + id + " did not finish: " + run + "\n" + app.tail());
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, program)));
    }
}
