package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.CommandRunner.Launch;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Exec behaviours, each on both spawn paths (the native posix_spawn + pidfd one and the JDK's
 * ProcessBuilder) with real processes: they must answer the same. Also which threads an Exec costs:
 * a quick command with little output is answered without the reader pool.
 */
class CommandRunnerTest {

    @TempDir
    Path work;
    private ThreadPoolExecutor ioPool;
    private ScheduledExecutorService timer;

    @BeforeEach
    void start() {
        ioPool = (ThreadPoolExecutor) Executors.newCachedThreadPool();
        timer = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void stop() {
        ioPool.shutdownNow();
        timer.shutdownNow();
    }

    private CommandRunner runner(Launch launch) throws IOException {
        return new CommandRunner(new WorkDir(work), ioPool, timer, launch);
    }

    private static ExecReply sh(CommandRunner runner, String script) throws Exception {
        return runner.run(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", script)).setTimeoutMs(20_000).build());
    }

    @Test
    void onThisMachineTheAgentSpawnsNatively() throws IOException {
        // Linux x86_64, glibc 2.36, kernel with pidfd_open, JNA on the class path: all the native path needs.
        assertThat(runner(Launch.AUTO).launchMechanism()).isEqualTo("posix_spawn+pidfd (native)");
        assertThat(runner(Launch.JDK).launchMechanism()).isEqualTo(System.getProperty("jdk.lang.Process.launchMechanism", "JDK default"));
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void aQuickCommandsOutputIsTakenWithoutReaderThreads(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        ExecReply reply = sh(runner, "echo out; echo err >&2; exit 4");
        assertThat(reply.getExitCode()).isEqualTo(4);
        assertThat(reply.getStdout().toStringUtf8()).isEqualTo("out\n");
        assertThat(reply.getStderr().toStringUtf8()).isEqualTo("err\n");
        assertThat(reply.getStdoutTruncated() || reply.getStderrTruncated()).isFalse();
        assertThat(reply.getTimedOut()).isFalse();
        // The runs of `true` go the same way; the first may be slow on a cold, loaded host.
        for (int i = 0; i < 20; i++) {
            assertThat(runner.run(ExecRequest.newBuilder().addArgv("true").build()).getExitCode()).isZero();
        }
        // Readers for every run would be 42 tasks; a loaded host may push a few JDK runs past the inline wait.
        assertThat(ioPool.getTaskCount()).as("tasks given to the reader pool").isLessThanOrEqualTo(launch == Launch.NATIVE ? 0 : 21);
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void exitCodesAndSignalsAreReportedAsJavasProcessDoes(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        assertThat(sh(runner, "exit 0").getExitCode()).isZero();
        assertThat(sh(runner, "exit 255").getExitCode()).isEqualTo(255);
        assertThat(runner.run(ExecRequest.newBuilder().addArgv("false").build()).getExitCode()).isEqualTo(1);
        // A command ended by a signal: 128 + the signal's number.
        assertThat(sh(runner, "kill -TERM $$").getExitCode()).isEqualTo(128 + 15);
        assertThat(sh(runner, "kill -KILL $$").getExitCode()).isEqualTo(128 + 9);
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void outputBeyondAPipeAndLongCommandsStillArriveWhole(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        // 300,000 bytes to stdout, 200,000 to stderr: more than a pipe holds, so the command blocks
        // until someone reads; each stream must come back whole and on its own side.
        ExecReply chatty = sh(runner, "head -c 300000 /dev/zero | tr '\\0' a; head -c 200000 /dev/zero | tr '\\0' b >&2");
        assertThat(chatty.getExitCode()).isZero();
        assertThat(chatty.getStdout()).isEqualTo(ByteString.copyFromUtf8("a".repeat(300_000)));
        assertThat(chatty.getStderr()).isEqualTo(ByteString.copyFromUtf8("b".repeat(200_000)));

        ExecReply slow = sh(runner, "echo before; sleep 0.3; echo after; echo late >&2");
        assertThat(slow.getStdout().toStringUtf8()).isEqualTo("before\nafter\n");
        assertThat(slow.getStderr().toStringUtf8()).isEqualTo("late\n");
        assertThat(slow.getAgentDurationNs()).as("spawn to reap spans the sleep").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(300));
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void outputOverTheCapIsCutAndMarked(Launch launch) throws Exception {
        int over = CommandRunner.OUTPUT_CAP_BYTES + 5000;
        ExecReply reply = sh(runner(launch), "head -c " + over + " /dev/zero; head -c " + over + " /dev/zero | tr '\\0' e >&2");
        assertThat(reply.getExitCode()).isZero();
        assertThat(reply.getStdout()).isEqualTo(ByteString.copyFrom(new byte[CommandRunner.OUTPUT_CAP_BYTES]));
        assertThat(reply.getStdoutTruncated()).isTrue();
        assertThat(reply.getStderr()).isEqualTo(ByteString.copyFromUtf8("e".repeat(CommandRunner.OUTPUT_CAP_BYTES)));
        assertThat(reply.getStderrTruncated()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void stdinIsFedWholeAndACommandThatDoesNotReadItStillEnds(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        ExecReply piped = runner.run(ExecRequest.newBuilder().addArgv("cat").setStdin(ByteString.copyFromUtf8("piped")).build());
        assertThat(piped.getStdout().toStringUtf8()).isEqualTo("piped");
        // 700,000 random bytes: more than a pipe takes at once, written as the command reads them.
        byte[] big = new byte[700_000];
        new Random(3).nextBytes(big);
        ExecReply copied = runner.run(ExecRequest.newBuilder().addArgv("cat").setStdin(ByteString.copyFrom(big)).setTimeoutMs(20_000).build());
        assertThat(copied.getStdout()).isEqualTo(ByteString.copyFrom(big));
        assertThat(copied.getTimedOut()).isFalse();
        // A command that never reads its stdin: the call ends with it, not at the timeout.
        ExecReply ignored = runner.run(ExecRequest.newBuilder().addArgv("true").setStdin(ByteString.copyFrom(big)).setTimeoutMs(20_000).build());
        assertThat(ignored.getExitCode()).isZero();
        assertThat(ignored.getTimedOut()).isFalse();
        // Without stdin the command reads /dev/null: an immediate end of input.
        assertThat(runner.run(ExecRequest.newBuilder().addArgv("wc").addArgv("-c").build()).getStdout().toStringUtf8().trim()).isEqualTo("0");
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void theCommandRunsInItsWorkDirectoryAndCannotLeaveIt(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        Files.createDirectories(work.resolve("sub/dir"));
        assertThat(runner.run(ExecRequest.newBuilder().addArgv("pwd").build()).getStdout().toStringUtf8())
                .isEqualTo(work.toRealPath() + "\n");
        assertThat(runner.run(ExecRequest.newBuilder().addArgv("pwd").setCwd("sub/dir").build()).getStdout().toStringUtf8())
                .isEqualTo(work.toRealPath().resolve("sub/dir") + "\n");
        assertThatThrownBy(() -> runner.run(ExecRequest.newBuilder().addArgv("pwd").setCwd("../").build()))
                .isInstanceOf(WorkDir.PathOutsideWorkDirException.class);
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void theCommandGetsTheAgentsEnvironmentTheRequestsAndItsMark(Launch launch) throws Exception {
        CommandRunner runner = runner(launch);
        ExecReply first = runner.run(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo \"$GREETING|$SPACEBENCH_EXEC|$PATH\""))
                .putEnv("GREETING", "hello world").build());
        ExecReply second = runner.run(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo \"$SPACEBENCH_EXEC|$HOME\"")).build());
        long pid = ProcessHandle.current().pid();
        assertThat(first.getStdout().toStringUtf8()).isEqualTo("hello world|" + pid + "-1|" + System.getenv("PATH") + "\n");
        assertThat(second.getStdout().toStringUtf8()).isEqualTo(pid + "-2|" + System.getenv("HOME") + "\n");
        assertThatThrownBy(() -> runner.run(ExecRequest.newBuilder().addArgv("true").putEnv("A=B", "x").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A=B");
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void aProgramThatCannotRunIsAnIOExceptionInTheJdksWords(Launch launch) throws IOException {
        assertThatThrownBy(() -> runner(launch).run(ExecRequest.newBuilder().addArgv("no-such-program-xyz").build()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot run program \"no-such-program-xyz\"")
                .cause().hasMessage("error=2, No such file or directory");
        assertThatThrownBy(() -> runner(launch).run(ExecRequest.newBuilder().addArgv(work.toString()).build()))
                .isInstanceOf(IOException.class)
                .cause().hasMessage("error=13, Permission denied");
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void anExecutableScriptWithoutAnInterpreterLineRunsWithTheShell(Launch launch) throws Exception {
        // execvp(3) and the JDK run such a file with /bin/sh; posix_spawnp alone fails it with ENOEXEC.
        Path script = Files.writeString(work.resolve("plain-script"), "echo ran as a script: $1\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        ExecReply reply = runner(launch).run(ExecRequest.newBuilder().addArgv(script.toString()).addArgv("arg1").setTimeoutMs(20_000).build());
        assertThat(reply.getExitCode()).isZero();
        assertThat(reply.getStdout().toStringUtf8()).isEqualTo("ran as a script: arg1\n");
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void theCommandInheritsNoFileDescriptorOfTheAgent(Launch launch) throws Exception {
        // A file this JVM holds open (the JDK opens without O_CLOEXEC): a child that inherited it would list it.
        try (RandomAccessFile held = new RandomAccessFile(Files.writeString(work.resolve("held"), "x").toFile(), "r")) {
            ExecReply reply = sh(runner(launch), "ls /proc/$$/fd");
            assertThat(reply.getStdout().toStringUtf8().split("\n")).as("the shell's open fds").containsExactly("0", "1", "2");
        }
    }

    /** The calling thread's signal mask, as far as the test needs it. */
    interface SignalMask extends com.sun.jna.Library {
        SignalMask C = com.sun.jna.Native.load("c", SignalMask.class);

        int sigemptyset(com.sun.jna.Pointer set);

        int sigaddset(com.sun.jna.Pointer set, int signal);

        int pthread_sigmask(int how, com.sun.jna.Pointer set, com.sun.jna.Pointer old);
    }

    @Test
    void onTheNativePathTheCommandStartsWithNoSignalBlockedWhateverTheCallingThreadBlocks() throws Exception {
        CommandRunner runner = runner(Launch.NATIVE);
        String blocked = ioPool.submit(() -> {
            com.sun.jna.Memory set = new com.sun.jna.Memory(128);
            SignalMask.C.sigemptyset(set);
            SignalMask.C.sigaddset(set, 12); // SIGUSR2
            SignalMask.C.pthread_sigmask(0 /* SIG_BLOCK */, set, null);
            // grep itself, not through sh: a shell may reset its mask.
            return runner.run(ExecRequest.newBuilder().addAllArgv(List.of("grep", "SigBlk", "/proc/self/status")).build())
                    .getStdout().toStringUtf8();
        }).get();
        assertThat(blocked).matches("SigBlk:\\s+0+\n");
    }

    @ParameterizedTest
    @EnumSource(value = Launch.class, names = {"NATIVE", "JDK"})
    void theTimeoutKillsTheCommandsWholeTreeAlsoWhatLeftIt(Launch launch) throws Exception {
        String detached = uniqueSleep();
        String doubled = uniqueSleep();
        String child = uniqueSleep();
        try {
            ExecReply reply = runner(launch).run(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo begun; sleep " + child
                    + " & setsid sleep " + detached + " & (setsid sh -c 'sleep " + doubled + "' &) ; sleep 30")).setTimeoutMs(1500).build());
            assertThat(reply.getTimedOut()).isTrue();
            assertThat(reply.getExitCode()).as("killed by SIGKILL").isEqualTo(137);
            assertThat(reply.getStdout().toStringUtf8()).isEqualTo("begun\n");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < deadline && !(AgentServerTest.mentioning("sleep " + detached).isEmpty()
                    && AgentServerTest.mentioning("sleep " + doubled).isEmpty() && AgentServerTest.mentioning("sleep " + child).isEmpty())) {
                Thread.sleep(20);
            }
            assertThat(AgentServerTest.mentioning("sleep " + child)).as("a child in the command's tree").isEmpty();
            assertThat(AgentServerTest.mentioning("sleep " + detached)).as("a setsid child of a timed-out command").isEmpty();
            assertThat(AgentServerTest.mentioning("sleep " + doubled)).as("a double-forked setsid child").isEmpty();
        } finally {
            AgentServerTest.killMentioning("sleep " + detached);
            AgentServerTest.killMentioning("sleep " + doubled);
            AgentServerTest.killMentioning("sleep " + child);
        }
    }

    @Test
    void onTheNativePathALeftoverHoldingAPipeGetsTheGraceAndMarksTheOutputTruncated() throws Exception {
        String leftover = uniqueSleep();
        try {
            CommandRunner runner = runner(Launch.NATIVE);
            // What a leftover writes within the grace after the exit is returned; the pipe it then
            // still holds marks the stream truncated, and the call ends by the grace, not the timeout.
            ExecReply reply = sh(runner, "echo started; (sleep 0.05; echo later; exec sleep " + leftover + ") &");
            assertThat(reply.getExitCode()).isZero();
            assertThat(reply.getTimedOut()).isFalse();
            assertThat(reply.getStdout().toStringUtf8()).isEqualTo("started\nlater\n");
            assertThat(reply.getStdoutTruncated()).isTrue();
            assertThat(reply.getStderrTruncated()).isTrue();
            assertThat(AgentServerTest.mentioning("sleep " + leftover)).as("a leftover that outlives the call is not killed").hasSize(1);
            // A leftover that closes the pipes within the grace leaves nothing truncated.
            ExecReply closed = sh(runner, "echo one; (sleep 0.05; echo two) &");
            assertThat(closed.getStdout().toStringUtf8()).isEqualTo("one\ntwo\n");
            assertThat(closed.getStdoutTruncated() || closed.getStderrTruncated()).isFalse();
        } finally {
            AgentServerTest.killMentioning("sleep " + leftover);
        }
    }

    private static String uniqueSleep() {
        return "3600." + (100_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(900_000));
    }
}
