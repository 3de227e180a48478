package dev.spacebench.channel;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.DeleteFileRequest;
import dev.spacebench.agent.v1.ExecReply;
import dev.spacebench.agent.v1.ExecRequest;
import dev.spacebench.agent.v1.ExportBulkRequest;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ImportBulkRequest;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.agent.v1.ReadFileReply;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileHeader;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.files.Sha256;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The host's side of one agent: the calls the measurement loops time. Every transfer is checked
 * end to end: the host knows the SHA-256 of what it sends, the agent checks what it received, and
 * the host checks what it received against both the agent's digest and the original.
 *
 * <p>Errors: {@link AgentCallException} for a failed call (with its gRPC code),
 * {@link TransferException} when bytes differ, {@link IOException} for host-side file trouble.
 */
public final class AgentChannel implements Channel, AgentJvm {

    /** This channel's id in requests, samples and pages. */
    public static final String ID = "agent";

    private final ManagedChannel managed;
    private volatile long lastTransferAgentNs;
    private final AgentGrpc.AgentBlockingStub blocking;
    private final AgentGrpc.AgentStub async;
    private final Path bulkDir;
    private final int chunkBytes;

    /**
     * @param managed the channel to close with this one
     * @param channel the channel to call through (may be {@code managed} with interceptors)
     * @param bulkDir the host's path of the bulk directory, or null when the Space has none
     * @param chunkBytes bytes per stream message (1 KiB to 3 MiB)
     */
    public AgentChannel(ManagedChannel managed, io.grpc.Channel channel, Path bulkDir, int chunkBytes) {
        this.managed = managed;
        this.blocking = AgentGrpc.newBlockingStub(channel);
        this.async = AgentGrpc.newStub(channel);
        this.bulkDir = bulkDir;
        this.chunkBytes = chunkBytes;
    }

    @Override
    public String id() {
        return ID;
    }

    /** Whether this Space has a bulk lane. */
    @Override
    public boolean hasBulkLane() {
        return bulkDir != null;
    }

    /** The no-op round trip; DEADLINE_EXCEEDED after {@code timeout} ({@link CallDeadlines}: no timer per call). */
    public void ping(Duration timeout) {
        try {
            CallDeadlines.within(timeout, () -> blocking.ping(PingRequest.getDefaultInstance()));
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("Ping", e);
        }
    }

    /** As {@link #ping}: the agent's Ping is its no-op round trip. */
    @Override
    public void noop(Duration timeout) {
        ping(timeout);
    }

    /** Runs argv in the Space, output captured, and waits for it; DEADLINE_EXCEEDED after {@code timeout} ({@link CallDeadlines}). */
    @Override
    public ExecResult exec(List<String> argv, Duration timeout) {
        try {
            ExecRequest request = ExecRequest.newBuilder().addAllArgv(argv).setTimeoutMs(timeout.toMillis()).build();
            ExecReply reply = CallDeadlines.within(timeout, () -> blocking.exec(request));
            return new ExecResult(reply.getExitCode(), reply.getAgentDurationNs(), reply.getStdout().toByteArray(),
                    reply.getStderr().toByteArray(), reply.getTimedOut());
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("Exec " + argv, e);
        }
    }

    /**
     * The agent's own time on the last upload or download through this channel, in ns, as it
     * reported it (see agent.proto's FileDigest.agent_duration_ns); 0 when that transfer failed or
     * the agent reported none. Channels serve one measuring thread, which reads it right after.
     */
    public long lastTransferAgentNs() {
        return lastTransferAgentNs;
    }

    @Override
    public long lastTransferFarNs() {
        return lastTransferAgentNs;
    }

    @Override
    public Optional<AgentJvm> agentJvm() {
        return Optional.of(this);
    }

    /** The Space's own environment. */
    @Override
    public AgentInfo info(Duration timeout) {
        return info(InfoRequest.getDefaultInstance(), timeout);
    }

    /**
     * Has the agent JVM run a full garbage collection, then reports as {@link #info(Duration)} (its
     * GC counts include that collection). For between loops, outside every timed region.
     */
    @Override
    public AgentInfo collectGarbage(Duration timeout) {
        return info(InfoRequest.newBuilder().setCollectGarbage(true).build(), timeout);
    }

    private AgentInfo info(InfoRequest request, Duration timeout) {
        try {
            var r = blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).info(request);
            return new AgentInfo(
                    new AgentInfo.SystemSeen(r.getOs(), r.getKernel(), r.getArch(), r.getCpuModel(), r.getCpuCount(), r.getMemoryBytes(),
                            r.getHostname()),
                    new AgentInfo.AgentProcess(r.getAgentVersion(), r.getJvm(), r.getLaunchMechanism(), r.getPid(), r.getJvmFlagsList(),
                            r.getStartToListenNs()),
                    new AgentInfo.Dirs(r.getWorkDir(), r.getBulkDir(), r.getBulkDirId()),
                    new AgentInfo.JvmCounters(r.getGcCount(), r.getGcTimeNs(), r.getAllocatedBytes(), r.getJitTimeNs()));
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("Info", e);
        }
    }

    /** Removes a file in the Space's work directory; true if it was there. */
    @Override
    public boolean delete(String remotePath, Duration timeout) {
        try {
            return blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .deleteFile(DeleteFileRequest.newBuilder().setPath(remotePath).build()).getExisted();
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("DeleteFile", e);
        }
    }

    /**
     * Sends a host file into the Space's work directory.
     *
     * @param source the host file; its size and SHA-256 must be {@code expected}
     * @param expected size and SHA-256 of {@code source}, known beforehand
     * @param remotePath destination relative to the work directory
     * @return what the agent stored, equal to {@code expected}
     * @throws TransferException if the agent stored something else
     */
    @Override
    public FileRef upload(Path source, FileRef expected, String remotePath, Lane lane, Duration timeout) throws IOException {
        lastTransferAgentNs = 0;
        FileDigest stored = lane == Lane.BULK ? uploadBulk(source, expected, remotePath, timeout)
                : uploadStream(source, expected, remotePath, timeout);
        lastTransferAgentNs = stored.getAgentDurationNs();
        return verified("upload of " + remotePath + " (agent's digest)", expected, stored.getSize(), stored.getSha256());
    }

    /**
     * Fetches a file from the Space's work directory into a new host file.
     *
     * @param expected size and SHA-256 the file must have
     * @param destination host file to create (must not exist)
     * @return what the host received, equal to {@code expected}
     * @throws TransferException if the agent sent, or the host received, something else
     */
    @Override
    public FileRef download(String remotePath, FileRef expected, Path destination, Lane lane, Duration timeout) throws IOException {
        lastTransferAgentNs = 0;
        return lane == Lane.BULK ? downloadBulk(remotePath, expected, destination, timeout)
                : downloadStream(remotePath, expected, destination, timeout);
    }

    private FileDigest uploadStream(Path source, FileRef expected, String remotePath, Duration timeout) throws IOException {
        CompletableFuture<FileDigest> result = new CompletableFuture<>();
        Object ready = new Object();
        ClientResponseObserver<WriteFileRequest, FileDigest> responses = new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<WriteFileRequest> requests) {
                requests.setOnReadyHandler(() -> {
                    synchronized (ready) {
                        ready.notifyAll();
                    }
                });
            }

            @Override
            public void onNext(FileDigest digest) {
                result.complete(digest);
            }

            @Override
            public void onError(Throwable t) {
                result.completeExceptionally(t);
                synchronized (ready) {
                    ready.notifyAll();
                }
            }

            @Override
            public void onCompleted() {
                result.completeExceptionally(new IllegalStateException("WriteFile completed without a digest"));
            }
        };
        ClientCallStreamObserver<WriteFileRequest> requests = (ClientCallStreamObserver<WriteFileRequest>)
                async.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).writeFile(responses);
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            requests.onNext(WriteFileRequest.newBuilder().setHeader(WriteFileHeader.newBuilder()
                    .setPath(remotePath).setSize(expected.size()).setSha256(expected.sha256())).build());
            while (!result.isDone()) {
                byte[] chunk = new byte[chunkBytes];
                int length = readFully(in, chunk);
                if (length > 0) {
                    awaitReady(requests, result, ready);
                    if (result.isDone()) {
                        break;
                    }
                    // The array is not touched after this, so sending it without a copy is safe.
                    requests.onNext(WriteFileRequest.newBuilder().setChunk(UnsafeByteOperations.unsafeWrap(chunk, 0, length)).build());
                }
                if (length < chunkBytes) {
                    break;
                }
            }
            if (!result.isDone()) {
                requests.onCompleted();
            }
        } catch (IOException | RuntimeException e) {
            requests.cancel("host failed while sending", e);
            throw e;
        }
        return await("WriteFile " + remotePath, result, timeout);
    }

    private static void awaitReady(ClientCallStreamObserver<?> requests, CompletableFuture<?> result, Object ready) {
        synchronized (ready) {
            while (!requests.isReady() && !result.isDone()) {
                try {
                    ready.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while sending", e);
                }
            }
        }
    }

    private FileDigest uploadBulk(Path source, FileRef expected, String remotePath, Duration timeout) throws IOException {
        requireBulkLane();
        String bulkName = "in-" + UUID.randomUUID();
        Path shared = bulkDir.resolve(bulkName);
        try {
            Files.copy(source, shared);
            return blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).importBulk(ImportBulkRequest.newBuilder()
                    .setBulkName(bulkName).setPath(remotePath).setSize(expected.size()).setSha256(expected.sha256()).build());
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("ImportBulk " + remotePath, e);
        } finally {
            // Gone already when the agent moved it in; still there if anything failed.
            Files.deleteIfExists(shared);
        }
    }

    private FileRef downloadStream(String remotePath, FileRef expected, Path destination, Duration timeout) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        long received = 0;
        FileDigest sent = null;
        // A cancellable context, so abandoning the iterator half way also ends the call.
        Context.CancellableContext context = Context.current().withCancellation();
        Context previous = context.attach();
        try (FileChannel out = FileChannel.open(destination, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            Iterator<ReadFileReply> replies = blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .readFile(ReadFileRequest.newBuilder().setPath(remotePath).setChunkSize(chunkBytes).build());
            while (replies.hasNext()) {
                ReadFileReply reply = replies.next();
                if (reply.hasDigest()) {
                    sent = reply.getDigest();
                    continue;
                }
                ByteString chunk = reply.getChunk();
                for (ByteBuffer part : chunk.asReadOnlyByteBufferList()) {
                    digest.update(part.duplicate());
                    while (part.hasRemaining()) {
                        out.write(part);
                    }
                }
                received += chunk.size();
            }
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("ReadFile " + remotePath, e);
        } finally {
            context.detach(previous);
            context.cancel(null);
        }
        if (sent == null) {
            throw new TransferException("ReadFile " + remotePath + ": the stream ended without the agent's digest");
        }
        verified("download of " + remotePath + " (agent's digest)", expected, sent.getSize(), sent.getSha256());
        lastTransferAgentNs = sent.getAgentDurationNs();
        return verified("download of " + remotePath + " (bytes received)", expected, received, Sha256.hex(digest));
    }

    private FileRef downloadBulk(String remotePath, FileRef expected, Path destination, Duration timeout) throws IOException {
        requireBulkLane();
        String bulkName = "out-" + UUID.randomUUID();
        Path shared = bulkDir.resolve(bulkName);
        try {
            FileDigest sent = blocking.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS)
                    .exportBulk(ExportBulkRequest.newBuilder().setPath(remotePath).setBulkName(bulkName).build());
            // The agent answers the size only (agent.proto: ExportBulk); an older agent's SHA-256 is checked too.
            verified("download of " + remotePath + " (agent's digest)", expected, sent.getSize(),
                    sent.getSha256().isEmpty() ? expected.sha256() : sent.getSha256());
            lastTransferAgentNs = sent.getAgentDurationNs();
            Sha256.Result got = Sha256.of(shared);
            FileRef checked = verified("download of " + remotePath + " (bytes in the bulk directory)", expected, got.size(), got.sha256());
            Files.move(shared, destination, StandardCopyOption.ATOMIC_MOVE);
            return checked;
        } catch (StatusRuntimeException e) {
            throw AgentCallException.of("ExportBulk " + remotePath, e);
        } finally {
            Files.deleteIfExists(shared);
        }
    }

    private void requireBulkLane() {
        if (bulkDir == null) {
            throw new IllegalStateException("this Space has no bulk lane; use the stream lane");
        }
    }

    private static FileRef verified(String what, FileRef expected, long size, String sha256) {
        if (size != expected.size() || !sha256.equalsIgnoreCase(expected.sha256())) {
            throw new TransferException(what + ": expected " + expected.size() + " bytes with SHA-256 " + expected.sha256()
                    + ", got " + size + " bytes with SHA-256 " + sha256);
        }
        return new FileRef(size, sha256.toLowerCase());
    }

    private static int readFully(FileChannel in, byte[] chunk) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(chunk);
        while (buffer.hasRemaining()) {
            if (in.read(buffer) == -1) {
                break;
            }
        }
        return buffer.position();
    }

    private static <T> T await(String call, CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toNanos() + TimeUnit.SECONDS.toNanos(5), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw AgentCallException.of(call, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(call + ": no reply within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(call + ": interrupted", e);
        }
    }

    @Override
    public void close() {
        managed.shutdownNow();
        try {
            managed.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
