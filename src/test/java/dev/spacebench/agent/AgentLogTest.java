package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.channel.TokenCredentials;
import dev.spacebench.space.local.AgentLauncher;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a real agent process writes to its stdout and stderr when a client sends too much. */
class AgentLogTest {

    @TempDir
    Path dir;

    @Test
    void anOversizedExecIsRefusedWithoutAStackTraceInTheAgentsOutput() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "log-test-token");
        List<String> command = new ArrayList<>(AgentLauncher.command());
        command.addAll(List.of("--work-dir", dir.resolve("work").toString(), "--bulk-dir", dir.resolve("bulk").toString(),
                "--token-file", token.toString()));
        Path stderr = dir.resolve("stderr.txt");
        Path stdout = dir.resolve("stdout.txt");
        Process agent = new ProcessBuilder(command).redirectError(stderr.toFile()).redirectOutput(stdout.toFile()).start();
        ManagedChannel channel = null;
        try {
            String ready = awaitReadyLine(stdout, agent);
            String target = ready.substring(AgentMain.READY_PREFIX.length()).replace("tcp:", "");
            channel = NettyChannelBuilder.forTarget(target).usePlaintext().maxInboundMessageSize(16 << 20).build();
            AgentGrpc.AgentBlockingStub stub = AgentGrpc.newBlockingStub(ClientInterceptors.intercept(channel,
                    new TokenCredentials("log-test-token"))).withDeadlineAfter(30, TimeUnit.SECONDS);

            Throwable refused = catchThrowable(() -> stub.exec(ExecRequest.newBuilder().addArgv("cat")
                    .setStdin(ByteString.copyFrom(new byte[8 << 20])).build()));
            assertThat(refused).isInstanceOfSatisfying(StatusRuntimeException.class,
                    e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
            // Still serving after it, and whatever it logged about it is written by now.
            stub.ping(PingRequest.getDefaultInstance());
            agent.destroy();
            assertThat(agent.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            if (channel != null) {
                channel.shutdownNow();
            }
            agent.destroyForcibly();
        }
        String all = Files.readString(stdout).replace(ready(stdout), "") + Files.readString(stderr);
        assertThat(all).as("the agent's stdout and stderr").doesNotContain("\tat ").doesNotContain("Exception in thread");
        long lines = all.lines().filter(l -> !l.isBlank()).count();
        assertThat(lines).as("one line per event at most, was:%n%s", all).isLessThanOrEqualTo(2);
    }

    private static String awaitReadyLine(Path stdout, Process agent) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && agent.isAlive()) {
            String line = ready(stdout);
            if (!line.isEmpty()) {
                return line;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the agent printed no readiness line; stdout: " + Files.readString(stdout));
    }

    private static String ready(Path stdout) throws java.io.IOException {
        return Files.readString(stdout).lines().filter(l -> l.startsWith(AgentMain.READY_PREFIX)).findFirst().orElse("");
    }
}
