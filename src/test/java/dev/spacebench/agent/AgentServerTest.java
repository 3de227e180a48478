package dev.spacebench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ImportBulkRequest;
import dev.spacebench.agent.v1.InfoReply;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileHeader;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.channel.TokenCredentials;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real agent on a loopback TCP port, called through real gRPC stubs; its commands spawned the
 * way the agent picks on this machine (native), and again the JDK's way in {@link AgentServerJdkExecTest}.
 */
class AgentServerTest {

    private static final String TOKEN = "s3cret-token";

    @TempDir
    Path temp;
    private AgentServer server;
    private ManagedChannel channel;
    private AgentGrpc.AgentBlockingStub stub;
    private AgentGrpc.AgentStub async;

    /** The agent's {@value CommandRunner#LAUNCH_PROPERTY}: null for its own choice. */
    String launch() {
        return null;
    }

    /** What InfoReply.launch_mechanism must say for {@link #launch()}. */
    String expectedLaunchMechanism() {
        return "posix_spawn+pidfd (native)";
    }

    @BeforeEach
    void start() throws Exception {
        if (launch() != null) {
            System.setProperty(CommandRunner.LAUNCH_PROPERTY, launch()); // read when the server's runner is made
        }
        try {
            server = AgentServer.start(AgentOptions.parse(List.of("--work-dir", temp.resolve("work").toString(),
                    "--bulk-dir", temp.resolve("bulk").toString())), TOKEN);
        } finally {
            System.clearProperty(CommandRunner.LAUNCH_PROPERTY);
        }
        channel = NettyChannelBuilder.forTarget(server.target()).usePlaintext().build();
        stub = AgentGrpc.newBlockingStub(ClientInterceptors.intercept(channel, new TokenCredentials(TOKEN)));
        async = AgentGrpc.newStub(ClientInterceptors.intercept(channel, new TokenCredentials(TOKEN)));
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.stop();
    }

    @Test
    void infoCollectsGarbageWhenAskedAndCountsAllocation() {
        InfoReply before = stub.info(InfoRequest.getDefaultInstance());
        for (int i = 0; i < 50; i++) {
            stub.exec(ExecRequest.newBuilder().addArgv("true").build());
        }
        InfoReply collected = stub.info(InfoRequest.newBuilder().setCollectGarbage(true).build());
        assertThat(collected.getGcCount()).as("the asked-for collection is counted").isGreaterThan(before.getGcCount());
        // Fifty Exec calls cannot be served without allocating a few KiB each (requests, replies, processes).
        assertThat(collected.getAllocatedBytes() - before.getAllocatedBytes()).isGreaterThan(50 * 1024);
    }

    @Test
    void infoSaysHowTheAgentSpawnsCommands() {
        assertThat(stub.info(InfoRequest.getDefaultInstance()).getLaunchMechanism()).isEqualTo(expectedLaunchMechanism());
    }

    @Test
    void infoReportsTheJitsTimeSoFarWhichNeverFalls() {
        // This JVM has compiled much before the test (JUnit, gRPC, the server's start), so its JIT time is above zero.
        long first = stub.info(InfoRequest.getDefaultInstance()).getJitTimeNs();
        for (int i = 0; i < 200; i++) {
            stub.ping(PingRequest.getDefaultInstance());
        }
        long second = stub.info(InfoRequest.getDefaultInstance()).getJitTimeNs();
        assertThat(first).isPositive();
        assertThat(second).isGreaterThanOrEqualTo(first);
        assertThat(second % 1_000_000).as("ms resolution, in ns").isZero();
    }

    @Test
    void aRunningExecHoldsNeitherPingsNorOtherExecsOnTheSameConnection() throws Exception {
        // Exec is started on the transport's thread (CallExecutors) and hands its command off: a command
        // still running must not stall the connection's other calls. The slow one leaves a file when it
        // ends, so "still running" is read on the agent's side, not from when its reply reached us.
        Path marker = temp.resolve("work").resolve("slow-ended");
        CompletableFuture<ExecReply> slow = new CompletableFuture<>();
        async.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "sleep 5; echo > slow-ended")).build(), observer(slow));
        for (int i = 0; i < 3; i++) {
            assertThat(stub.ping(PingRequest.getDefaultInstance()).getAgentNanos()).isNotZero();
        }
        ExecReply quick = stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo quick")).build());
        assertThat(quick.getStdout().toStringUtf8()).isEqualTo("quick\n");
        assertThat(marker).as("the slow command still runs").doesNotExist();
        assertThat(slow.get(30, TimeUnit.SECONDS).getExitCode()).isZero();
        assertThat(marker).exists();
    }

    @Test
    void refusesCallsWithoutOrWithAWrongToken() {
        AgentGrpc.AgentBlockingStub none = AgentGrpc.newBlockingStub(channel);
        assertThatThrownBy(() -> none.ping(PingRequest.getDefaultInstance()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        AgentGrpc.AgentBlockingStub wrong = AgentGrpc.newBlockingStub(ClientInterceptors.intercept(channel, new TokenCredentials("nope")));
        assertThatThrownBy(() -> wrong.exec(ExecRequest.newBuilder().addArgv("true").build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        assertThat(stub.ping(PingRequest.getDefaultInstance()).getAgentNanos()).isNotZero();
    }

    @Test
    void execReturnsExitCodeAndOutput() {
        ExecReply reply = stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo out; echo err >&2; exit 3")).build());
        assertThat(reply.getExitCode()).isEqualTo(3);
        assertThat(reply.getStdout().toStringUtf8()).isEqualTo("out\n");
        assertThat(reply.getStderr().toStringUtf8()).isEqualTo("err\n");
        assertThat(reply.getAgentDurationNs()).isPositive();

        ExecReply withStdin = stub.exec(ExecRequest.newBuilder().addArgv("cat").setStdin(ByteString.copyFromUtf8("piped")).build());
        assertThat(withStdin.getStdout().toStringUtf8()).isEqualTo("piped");

        ExecReply discarded = stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "echo gone")).setDiscardOutput(true).build());
        assertThat(discarded.getExitCode()).isZero();
        assertThat(discarded.getStdout().isEmpty()).isTrue();
    }

    @Test
    void execTimesOutAndReportsMissingPrograms() {
        ExecReply slow = stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("sleep", "5")).setTimeoutMs(200).build());
        assertThat(slow.getTimedOut()).isTrue();
        assertThat(slow.getAgentDurationNs()).isLessThan(TimeUnit.SECONDS.toNanos(4));
        assertThatThrownBy(() -> stub.exec(ExecRequest.newBuilder().addArgv("no-such-program-xyz").build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(e.getStatus().getDescription()).isEqualTo("cannot run 'no-such-program-xyz': error=2, No such file or directory");
                });
        assertThatThrownBy(() -> stub.exec(ExecRequest.newBuilder().build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).contains("argv");
                });
    }

    @Test
    void aTimeoutTooLargeForTheDeadlinesNanosecondsIsRefusedNamingItsRange() {
        // 9,223,372,036,855 ms is more nanoseconds than a long holds: the deadline overflowed and the
        // command was killed at once (exit 137, timed_out). Long.MAX_VALUE likewise.
        for (long huge : new long[] {9_223_372_036_855L, Long.MAX_VALUE, 86_400_001L, -1L}) {
            assertThatThrownBy(() -> stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("true")).setTimeoutMs(huge).build()))
                    .as("timeout_ms %d", huge)
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                        assertThat(e.getStatus().getDescription())
                                .isEqualTo("timeout_ms must be 0 (none) or from 1 to 86400000 (24 hours), was " + huge);
                    });
        }
        // The largest allowed runs the command to its end.
        ExecReply longest = stub.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c", "sleep 0.3; exit 3"))
                .setTimeoutMs(86_400_000L).build());
        assertThat(longest.getExitCode()).isEqualTo(3);
        assertThat(longest.getTimedOut()).isFalse();
        assertThat(longest.getAgentDurationNs()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
    }

    @Test
    void execAnswersAtTheCommandsExitWhenAnEscapedChildHoldsItsOutput() throws Exception {
        String first = uniqueSleep();
        String second = uniqueSleep();
        try {
            // The client's deadline is far past the Exec timeout: a call that waits for the pipe's
            // EOF (held by the sleeps for an hour) ends in DEADLINE_EXCEEDED instead of a reply.
            AgentGrpc.AgentBlockingStub patient = stub.withDeadlineAfter(20, TimeUnit.SECONDS);
            ExecReply background = patient.exec(ExecRequest.newBuilder()
                    .addAllArgv(List.of("sh", "-c", "echo started; sleep " + first + " &")).setTimeoutMs(2000).build());
            assertThat(background.getExitCode()).isZero();
            assertThat(background.getTimedOut()).as("sh itself exited at once").isFalse();
            assertThat(background.getStdout().toStringUtf8()).isEqualTo("started\n");
            // Not asserted: stdout_truncated. When the JDK's reaper sees the exit before our reader
            // has begun, it drains what the pipe holds and closes it itself, so the flag can be
            // false although the sleep still holds its end (seen under load in CI).

            ExecReply detached = patient.exec(ExecRequest.newBuilder()
                    .addAllArgv(List.of("sh", "-c", "setsid sleep " + second + " &")).setTimeoutMs(2000).build());
            assertThat(detached.getExitCode()).isZero();
        } finally {
            killMentioning("sleep " + first);
            killMentioning("sleep " + second);
        }
    }

    @Test
    void execTimeoutKillsChildrenThatLeftTheProcessTree() throws Exception {
        String detached = uniqueSleep();
        String doubled = uniqueSleep();
        try {
            AgentGrpc.AgentBlockingStub patient = stub.withDeadlineAfter(20, TimeUnit.SECONDS);
            ExecReply reply = patient.exec(ExecRequest.newBuilder().addAllArgv(List.of("sh", "-c",
                    "setsid sleep " + detached + " & (setsid sh -c 'sleep " + doubled + "' &) ; sleep 30")).setTimeoutMs(1500).build());
            assertThat(reply.getTimedOut()).isTrue();
            assertThat(reply.getExitCode()).as("killed by SIGKILL").isEqualTo(137);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < deadline && !(mentioning("sleep " + detached).isEmpty() && mentioning("sleep " + doubled).isEmpty())) {
                Thread.sleep(20);
            }
            assertThat(mentioning("sleep " + detached)).as("a setsid child of a timed-out command").isEmpty();
            assertThat(mentioning("sleep " + doubled)).as("a double-forked setsid child of a timed-out command").isEmpty();
        } finally {
            killMentioning("sleep " + detached);
            killMentioning("sleep " + doubled);
        }
    }

    private static String uniqueSleep() {
        return "3600." + (100_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(900_000));
    }

    /** Live processes whose command line contains {@code text}, as pids. */
    static List<Long> mentioning(String text) throws java.io.IOException {
        List<Long> found = new java.util.ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (cmdline.contains(text)) {
                        found.add(Long.parseLong(proc.getFileName().toString()));
                    }
                } catch (java.io.IOException ignored) {
                    // gone meanwhile
                }
            }
        }
        return found;
    }

    static void killMentioning(String text) throws java.io.IOException {
        for (long pid : mentioning(text)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void writeFileWithAWrongShaIsDataLossAndLeavesNoFile() throws Exception {
        byte[] content = "hello world".getBytes(StandardCharsets.UTF_8);
        String wrongSha = "0".repeat(64);
        CompletableFuture<FileDigest> result = new CompletableFuture<>();
        StreamObserver<WriteFileRequest> requests = async.writeFile(observer(result));
        requests.onNext(WriteFileRequest.newBuilder().setHeader(WriteFileHeader.newBuilder()
                .setPath("dir/f.txt").setSize(content.length).setSha256(wrongSha)).build());
        requests.onNext(WriteFileRequest.newBuilder().setChunk(ByteString.copyFrom(content)).build());
        requests.onCompleted();
        assertThatThrownBy(result::get).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DATA_LOSS);
                    assertThat(e.getStatus().getDescription()).contains("SHA-256");
                });
        try (Stream<Path> files = Files.walk(temp.resolve("work"))) {
            assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
        }
    }

    @Test
    void writeThenReadRoundTripsTheBytes() throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(content);
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(content));
        CompletableFuture<FileDigest> result = new CompletableFuture<>();
        StreamObserver<WriteFileRequest> requests = async.writeFile(observer(result));
        requests.onNext(WriteFileRequest.newBuilder().setHeader(WriteFileHeader.newBuilder()
                .setPath("f.bin").setSize(content.length).setSha256(sha)).build());
        for (int off = 0; off < content.length; off += 1 << 20) {
            requests.onNext(WriteFileRequest.newBuilder().setChunk(ByteString.copyFrom(content, off,
                    Math.min(1 << 20, content.length - off))).build());
        }
        requests.onCompleted();
        assertThat(result.get(10, TimeUnit.SECONDS).getSha256()).isEqualTo(sha);
        assertThat(Files.readAllBytes(temp.resolve("work/f.bin"))).isEqualTo(content);

        var replies = stub.readFile(ReadFileRequest.newBuilder().setPath("f.bin").setChunkSize(1 << 20).build());
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        FileDigest digest = null;
        int chunks = 0;
        while (replies.hasNext()) {
            var reply = replies.next();
            if (reply.hasDigest()) {
                digest = reply.getDigest();
            } else {
                chunks++;
                reply.getChunk().writeTo(got);
            }
        }
        assertThat(chunks).isEqualTo(4);
        assertThat(got.toByteArray()).isEqualTo(content);
        assertThat(digest.getSha256()).isEqualTo(sha);
        assertThat(digest.getSize()).isEqualTo(content.length);
    }

    @Test
    void pathsOutsideTheWorkDirAreInvalidArgument() {
        assertThatThrownBy(() -> stub.readFile(ReadFileRequest.newBuilder().setPath("../bulk/x").build()).hasNext())
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).contains("..");
                });
        assertThatThrownBy(() -> stub.readFile(ReadFileRequest.newBuilder().setPath("/etc/passwd").build()).hasNext())
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }

    @Test
    void bulkImportChecksTheShaAndLeavesNothingOnMismatch() throws Exception {
        Files.writeString(temp.resolve("bulk/in-1"), "bulk bytes");
        assertThatThrownBy(() -> stub.importBulk(ImportBulkRequest.newBuilder().setBulkName("in-1").setPath("x.bin")
                .setSize(10).setSha256("f".repeat(64)).build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DATA_LOSS));
        try (Stream<Path> files = Files.walk(temp.resolve("work"))) {
            assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
        }
        assertThatThrownBy(() -> stub.importBulk(ImportBulkRequest.newBuilder().setBulkName("../work/x").setPath("x.bin")
                .setSize(1).setSha256("f".repeat(64)).build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }

    @Test
    void bulkImportRefusesASymlinkAndLeavesItsTargetAlone() throws Exception {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "not for the Space");
        Files.createSymbolicLink(temp.resolve("bulk/in-link"), secret);
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(secret)));
        assertThatThrownBy(() -> stub.importBulk(ImportBulkRequest.newBuilder().setBulkName("in-link").setPath("got.txt")
                .setSize(Files.size(secret)).setSha256(sha).build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).contains("symbolic link");
                });
        assertThat(temp.resolve("work/got.txt")).doesNotExist();
        assertThat(Files.isSymbolicLink(temp.resolve("bulk/in-link"))).as("the link stays where it was put").isTrue();
        try (Stream<Path> files = Files.list(temp.resolve("work"))) {
            assertThat(files.toList()).isEmpty();
        }

        Files.createDirectory(temp.resolve("bulk/in-dir"));
        assertThatThrownBy(() -> stub.importBulk(ImportBulkRequest.newBuilder().setBulkName("in-dir").setPath("d")
                .setSize(0).setSha256(sha).build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }

    @Test
    void badPathsAreInvalidArgumentWithAShortMessage() throws Exception {
        Files.createDirectories(temp.resolve("work/adir/inner"));
        String longName = "n".repeat(300);
        String hugePath = "p/".repeat(32 * 1024);
        for (String path : List.of("adir", longName, hugePath)) {
            StatusRuntimeException read = catchStatus(() -> stub.readFile(ReadFileRequest.newBuilder().setPath(path).build()).hasNext());
            StatusRuntimeException delete = catchStatus(() -> stub.deleteFile(
                    dev.spacebench.agent.v1.DeleteFileRequest.newBuilder().setPath(path).build()));
            StatusRuntimeException export = catchStatus(() -> stub.exportBulk(
                    dev.spacebench.agent.v1.ExportBulkRequest.newBuilder().setPath(path).setBulkName("out").build()));
            CompletableFuture<FileDigest> write = new CompletableFuture<>();
            StreamObserver<WriteFileRequest> requests = async.writeFile(observer(write));
            requests.onNext(WriteFileRequest.newBuilder().setHeader(WriteFileHeader.newBuilder()
                    .setPath(path).setSize(1).setSha256("a".repeat(64))).build());
            requests.onNext(WriteFileRequest.newBuilder().setChunk(ByteString.copyFromUtf8("x")).build());
            requests.onCompleted();
            Throwable written = org.assertj.core.api.Assertions.catchThrowable(() -> write.get(10, TimeUnit.SECONDS));
            StatusRuntimeException writeStatus = (StatusRuntimeException) written.getCause();
            for (StatusRuntimeException e : List.of(read, delete, export, writeStatus)) {
                String what = path.length() > 20 ? path.length() + "-char path" : path;
                assertThat(e.getStatus().getCode()).as("%s: %s", what, e.getStatus()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                assertThat(e.getStatus().getDescription().length()).as("%s: message length", what).isLessThan(400);
            }
        }
        assertThat(temp.resolve("work/adir/inner")).as("a delete of a directory removes nothing").isDirectory();
        assertThat(catchStatus(() -> stub.deleteFile(dev.spacebench.agent.v1.DeleteFileRequest.newBuilder()
                .setPath(longName).build())).getStatus().getDescription()).contains("255");
        assertThat(catchStatus(() -> stub.readFile(ReadFileRequest.newBuilder().setPath(hugePath).build()).hasNext())
                .getStatus().getDescription()).contains("4095");
    }

    private static StatusRuntimeException catchStatus(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(thrown).isInstanceOf(StatusRuntimeException.class);
        return (StatusRuntimeException) thrown;
    }

    private static <T> StreamObserver<T> observer(CompletableFuture<T> result) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                result.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
        };
    }
}
