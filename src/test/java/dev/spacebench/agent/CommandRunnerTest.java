package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which threads an Exec costs: a quick command with little output is answered without the reader
 * pool (its output taken from the pipes after the exit); a long or chatty one still gets all its
 * output through the readers, split as the command wrote it.
 */
class CommandRunnerTest {

    @TempDir
    Path work;
    private ThreadPoolExecutor ioPool;
    private ScheduledExecutorService timer;
    private CommandRunner runner;

    @BeforeEach
    void start() throws Exception {
        ioPool = (ThreadPoolExecutor) Executors.newCachedThreadPool();
        timer = Executors.newSingleThreadScheduledExecutor();
        runner = new CommandRunner(new WorkDir(work), ioPool, timer);
    }

    @AfterEach
    void stop() {
        ioPool.shutdownNow();
        timer.shutdownNow();
    }

    private ExecReply run(String script) throws Exception {
        return runner.run(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", script)).setTimeoutMs(20_000).build());
    }

    @Test
    void aQuickCommandsOutputIsTakenWithoutReaderThreads() throws Exception {
        ExecReply reply = run("echo out; echo err >&2; exit 4");
        assertThat(reply.getExitCode()).isEqualTo(4);
        assertThat(reply.getStdout().toStringUtf8()).isEqualTo("out\n");
        assertThat(reply.getStderr().toStringUtf8()).isEqualTo("err\n");
        assertThat(reply.getStdoutTruncated() || reply.getStderrTruncated()).isFalse();
        // The runs of `true` go the same way; the first may be slow on a cold, loaded host.
        for (int i = 0; i < 20; i++) {
            assertThat(runner.run(ExecRequest.newBuilder().addArgv("true").build()).getExitCode()).isZero();
        }
        // Readers for every run would be 42 tasks; a loaded host may push a few runs past the inline wait.
        assertThat(ioPool.getTaskCount()).as("tasks given to the reader pool").isLessThanOrEqualTo(21);
    }

    @Test
    void outputBeyondAPipeAndLongCommandsStillArriveWhole() throws Exception {
        // 300,000 bytes to stdout, 200,000 to stderr: more than a pipe holds, so the command blocks
        // until someone reads; each stream must come back whole and on its own side.
        ExecReply chatty = run("head -c 300000 /dev/zero | tr '\\0' a; head -c 200000 /dev/zero | tr '\\0' b >&2");
        assertThat(chatty.getExitCode()).isZero();
        assertThat(chatty.getStdout()).isEqualTo(ByteString.copyFromUtf8("a".repeat(300_000)));
        assertThat(chatty.getStderr()).isEqualTo(ByteString.copyFromUtf8("b".repeat(200_000)));

        ExecReply slow = run("echo before; sleep 0.3; echo after; echo late >&2");
        assertThat(slow.getStdout().toStringUtf8()).isEqualTo("before\nafter\n");
        assertThat(slow.getStderr().toStringUtf8()).isEqualTo("late\n");
        assertThat(slow.getAgentDurationNs()).isPositive();
    }

    @Test
    void outputOverTheCapIsCutAndMarked() throws Exception {
        int over = CommandRunner.OUTPUT_CAP_BYTES + 5000;
        ExecReply reply = run("head -c " + over + " /dev/zero");
        assertThat(reply.getStdout().size()).isEqualTo(CommandRunner.OUTPUT_CAP_BYTES);
        assertThat(reply.getStdoutTruncated()).isTrue();
        assertThat(reply.getStderrTruncated()).isFalse();
    }
}
