package dev.spacebench.agent;

import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.DeleteFileReply;
import dev.spacebench.agent.v1.DeleteFileRequest;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.agent.v1.ExportBulkRequest;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ImportBulkRequest;
import dev.spacebench.agent.v1.InfoReply;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.agent.v1.ReadFileReply;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.protocol.AgentProtocol;
import dev.spacebench.linux.LinuxFacts;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;

/** The Agent gRPC service: thin glue from calls to the pieces that do the work. */
final class AgentService extends AgentGrpc.AgentImplBase {

    static final int MAX_CHUNK_BYTES = AgentProtocol.MAX_CHUNK_BYTES;
    static final int DEFAULT_CHUNK_BYTES = AgentProtocol.DEFAULT_CHUNK_BYTES;

    private final WorkDir workDir;
    private final BulkLane bulkLane;
    private final CommandRunner commandRunner;
    private final String version;
    private final Executor execPool;
    private final AllocationCounter allocation = new AllocationCounter();
    /** System.currentTimeMillis() when the server listened; 0 before. */
    private volatile long listeningAtMillis;
    /** The process's age when the server listened ({@link ProcessAge}), in ns; -1 before or where unknown. */
    private volatile long processAgeAtListenNs = -1;

    AgentService(WorkDir workDir, BulkLane bulkLane, ExecutorService ioPool, ScheduledExecutorService timer, String version) {
        this(workDir, bulkLane, ioPool, timer, version, Runnable::run);
    }

    /**
     * @param execPool where an Exec's command runs and is waited for; the server calls {@link
     *     #exec} on its transport's thread ({@code CallExecutors}), which must not block
     */
    AgentService(WorkDir workDir, BulkLane bulkLane, ExecutorService ioPool, ScheduledExecutorService timer, String version,
            Executor execPool) {
        this.execPool = execPool;
        this.workDir = workDir;
        this.bulkLane = bulkLane;
        this.commandRunner = new CommandRunner(workDir, ioPool, timer);
        this.version = version;
    }

    /** Called once the server listens: the end of the agent's start, for {@code start_to_listen_ns}. */
    void listening() {
        listeningAtMillis = System.currentTimeMillis();
        processAgeAtListenNs = ProcessAge.sinceStartNs().orElse(-1);
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingReply> reply) {
        reply.onNext(PingReply.newBuilder().setAgentNanos(System.nanoTime()).build());
        reply.onCompleted();
    }

    @Override
    public void exec(ExecRequest request, StreamObserver<ExecReply> reply) {
        try {
            execPool.execute(() -> runExec(request, reply));
        } catch (RejectedExecutionException e) {
            reply.onError(Status.UNAVAILABLE.withDescription("the agent is stopping").asRuntimeException());
        }
    }

    private void runExec(ExecRequest request, StreamObserver<ExecReply> reply) {
        try {
            reply.onNext(commandRunner.run(request));
            reply.onCompleted();
        } catch (IOException e) {
            // Both spawn paths report a missing or non-executable program as an IOException.
            reply.onError(Status.NOT_FOUND.withDescription(AgentStatus.cut("cannot run " + ClientText.quote(request.getArgv(0))
                    + ": " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()))).asRuntimeException());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply.onError(AgentStatus.of(e).asRuntimeException());
        } catch (RuntimeException e) {
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    @Override
    public StreamObserver<WriteFileRequest> writeFile(StreamObserver<FileDigest> reply) {
        return new FileReceiver(workDir, reply);
    }

    @Override
    public void readFile(ReadFileRequest request, StreamObserver<ReadFileReply> reply) {
        try {
            int chunk = request.getChunkSize() == 0 ? DEFAULT_CHUNK_BYTES : request.getChunkSize();
            if (chunk < 1 || chunk > MAX_CHUNK_BYTES) {
                throw new IllegalArgumentException("chunk_size must be 0 (default, 1 MiB) or 1.." + MAX_CHUNK_BYTES
                        + " bytes, was " + request.getChunkSize());
            }
            FileSender.start(request.getPath(), workDir.resolveFile(request.getPath()), chunk,
                    (ServerCallStreamObserver<ReadFileReply>) reply);
        } catch (IOException | RuntimeException e) {
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    @Override
    public void importBulk(ImportBulkRequest request, StreamObserver<FileDigest> reply) {
        try {
            long start = System.nanoTime();
            FileDigest digest = bulkLane.importFile(request);
            reply.onNext(digest.toBuilder().setAgentDurationNs(System.nanoTime() - start).build());
            reply.onCompleted();
        } catch (IOException | RuntimeException e) {
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    @Override
    public void exportBulk(ExportBulkRequest request, StreamObserver<FileDigest> reply) {
        try {
            long start = System.nanoTime();
            FileDigest digest = bulkLane.exportFile(request);
            reply.onNext(digest.toBuilder().setAgentDurationNs(System.nanoTime() - start).build());
            reply.onCompleted();
        } catch (IOException | RuntimeException e) {
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    @Override
    public void deleteFile(DeleteFileRequest request, StreamObserver<DeleteFileReply> reply) {
        try {
            boolean existed = Files.deleteIfExists(workDir.resolveFile(request.getPath()));
            reply.onNext(DeleteFileReply.newBuilder().setExisted(existed).build());
            reply.onCompleted();
        } catch (IOException | RuntimeException e) {
            reply.onError(AgentStatus.of(e).asRuntimeException());
        }
    }

    /**
     * The process's start to listening (10 ms resolution); where /proc is missing, the JVM's start
     * time to listening instead (ms resolution; it leaves out the JVM's own boot). The fallback is
     * read lazily (here, not at start) so that the management classes do not slow the start they measure.
     */
    private long startToListenNs() {
        long listened = listeningAtMillis;
        if (listened == 0) {
            return 0;
        }
        long age = processAgeAtListenNs;
        return age >= 0 ? age : Math.max(0, listened - ManagementFactory.getRuntimeMXBean().getStartTime()) * 1_000_000L;
    }

    private static long jitTimeNs() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() * 1_000_000L : 0;
    }

    @Override
    public void info(InfoRequest request, StreamObserver<InfoReply> reply) {
        if (request.getCollectGarbage()) {
            System.gc();
        }
        reply.onNext(InfoReply.newBuilder()
                .setOs(LinuxFacts.os())
                .setKernel(LinuxFacts.kernel())
                .setArch(LinuxFacts.arch())
                .setCpuModel(LinuxFacts.cpuModel(LinuxFacts.cpuinfo()))
                .setCpuCount(LinuxFacts.cpuCount())
                .setMemoryBytes(LinuxFacts.memoryBytes())
                .setHostname(LinuxFacts.hostname())
                .setJvm(LinuxFacts.jvm())
                .setAgentVersion(version)
                .setWorkDir(workDir.root().toString())
                .setBulkDir(bulkLane.dir().toString())
                .setBulkDirId(bulkLane.id())
                .setLaunchMechanism(commandRunner.launchMechanism())
                .setPid(ProcessHandle.current().pid())
                .addAllJvmFlags(LinuxFacts.ownJvmFlags())
                .setStartToListenNs(startToListenNs())
                .setGcCount(ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> Math.max(0, g.getCollectionCount())).sum())
                .setGcTimeNs(ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> Math.max(0, g.getCollectionTime())).sum()
                        * 1_000_000L)
                .setAllocatedBytes(allocation.bytes())
                .setJitTimeNs(jitTimeNs())
                .build());
        reply.onCompleted();
    }
}
