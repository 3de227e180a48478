package dev.spacebench.floor;

import com.google.protobuf.UnsafeByteOperations;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.ReadFileReply;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileHeader;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.plan.PlanLimits;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The bare gRPC stream: one payload of random bytes up through WriteFile and down through
 * ReadFile of a {@link BareGrpcServer} in a process of its own ({@link BareServerProcess}, started as
 * a process Space's agent is, over TCP loopback), memory to memory, no files; with or without the
 * agent's hashing (SHA-256 by the server over what it receives and sends, by the client over what it
 * downloads, as the host does; the upload's source digest is known beforehand, as the host's is). The
 * floor under the stream lane's file-transfer figures (the published one is 100 MiB in 1 MiB
 * chunks); throughput is bytes over a sample's ns ({@link dev.spacebench.stats.Throughput}).
 */
public final class BareGrpcStream {

    public static final int HUNDRED_MIB = 100 << 20;
    private static final long DEADLINE_SECONDS = 120;

    private BareGrpcStream() {}

    /**
     * @param bytes payload size
     * @param chunkBytes bytes per message
     * @param uploadNs WriteFile durations in ns: first message sent to the server's reply received
     * @param downloadNs ReadFile durations in ns: request sent to the last message received
     */
    public record Result(int bytes, int chunkBytes, long[] uploadNs, long[] downloadNs) {}

    /**
     * All uploads (warm-ups first), then all downloads.
     *
     * @param bytes payload size, 0 or more (e.g. {@link #HUNDRED_MIB}); the payload is held in memory
     * @param chunkBytes bytes per message, {@link PlanLimits#MIN_CHUNK_BYTES} to {@link PlanLimits#MAX_CHUNK_BYTES}
     * @param n measured transfers each way, at least 1
     * @param warmups transfers each way first and dropped, at least 0
     * @throws IllegalArgumentException for a size or chunk out of range, n &lt; 1 or warmups &lt; 0
     * @throws IOException if the server process cannot start, or a transfer fails or moves the
     *     wrong number of bytes
     */
    public static Result run(int bytes, int chunkBytes, int n, int warmups) throws IOException, InterruptedException {
        return run(bytes, chunkBytes, n, warmups, false);
    }

    /**
     * As {@link #run(int, int, int, int)}; with {@code hash}, both sides hash as the agent and host
     * do and every digest is checked against the payload's.
     *
     * @throws IOException also when a digest does not match the payload's
     */
    public static Result run(int bytes, int chunkBytes, int n, int warmups, boolean hash) throws IOException, InterruptedException {
        return run(bytes, chunkBytes, n, warmups, hash, server -> { });
    }

    /** As {@link #run(int, int, int, int, boolean)}, telling {@code started} of the server process first (for tests). */
    static Result run(int bytes, int chunkBytes, int n, int warmups, boolean hash, Consumer<BareServerProcess> started)
            throws IOException, InterruptedException {
        if (n < 1 || warmups < 0) {
            throw new IllegalArgumentException("n must be at least 1 and warmups 0 or more, were " + n + " and " + warmups);
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be 0 or more, was " + bytes);
        }
        if (chunkBytes < PlanLimits.MIN_CHUNK_BYTES || chunkBytes > PlanLimits.MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("chunkBytes must be from " + PlanLimits.MIN_CHUNK_BYTES + " to "
                    + PlanLimits.MAX_CHUNK_BYTES + ", was " + chunkBytes);
        }
        // The server makes the same bytes from the same seed: random, so that nothing on the way could compress them.
        long seed = new SplittableRandom().nextLong();
        byte[] payload = BareServerMain.bytes(bytes, seed);
        String expected = hash ? java.util.HexFormat.of().formatHex(sha256().digest(payload)) : "";
        try (BareServerProcess server = BareServerProcess.start(null, bytes, seed, hash)) {
            started.accept(server);
            long[] uploads = Trials.run(n, warmups, () -> upload(server.async(), payload, chunkBytes, expected));
            long[] downloads = Trials.run(n, warmups, () -> download(server.blocking(), bytes, chunkBytes, expected));
            return new Result(bytes, chunkBytes, uploads, downloads);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** @param expected the payload's SHA-256 in hex, or "" when nothing is hashed */
    private static long upload(AgentGrpc.AgentStub server, byte[] payload, int chunkBytes, String expected) throws IOException, InterruptedException {
        CompletableFuture<FileDigest> result = new CompletableFuture<>();
        MemoryUpload sender = new MemoryUpload(payload, chunkBytes, result);
        long start = System.nanoTime();
        server.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).writeFile(sender);
        FileDigest digest;
        try {
            digest = result.get(DEADLINE_SECONDS + 5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("bare WriteFile failed: " + e, e);
        }
        long ns = System.nanoTime() - start;
        if (digest.getSize() != payload.length) {
            throw new IOException("bare WriteFile: sent " + payload.length + " bytes, the server counted " + digest.getSize());
        }
        if (!digest.getSha256().equals(expected)) {
            throw new IOException("bare WriteFile: the server's SHA-256 " + digest.getSha256() + " is not the payload's " + expected);
        }
        return ns;
    }

    /** One bare ReadFile of {@code bytes}, checked; @return its ns. */
    static long download(AgentGrpc.AgentBlockingStub server, int bytes, int chunkBytes, String expected) throws IOException {
        MessageDigest digest = expected.isEmpty() ? null : sha256();
        String sent = "";
        long start = System.nanoTime();
        Iterator<ReadFileReply> replies = server.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS)
                .readFile(ReadFileRequest.newBuilder().setPath("memory").setChunkSize(chunkBytes).build());
        long received = 0;
        while (replies.hasNext()) {
            ReadFileReply reply = replies.next();
            received += reply.getChunk().size();
            BareAgentService.update(digest, reply.getChunk());
            if (reply.hasDigest()) {
                sent = reply.getDigest().getSha256();
            }
        }
        String got = BareAgentService.hex(digest);
        long ns = System.nanoTime() - start;
        if (!got.equals(expected) || !sent.equals(expected)) {
            throw new IOException("bare ReadFile: SHA-256 sent " + sent + ", received " + got + ", payload's " + expected);
        }
        if (received != bytes) {
            throw new IOException("bare ReadFile: expected " + bytes + " bytes, received " + received);
        }
        return ns;
    }

    /**
     * Sends the header and then chunks whenever the transport is ready (gRPC's onReady), so the
     * client never buffers more than flow control allows, like the host's real upload.
     */
    private static final class MemoryUpload implements ClientResponseObserver<WriteFileRequest, FileDigest> {
        private final byte[] payload;
        private final int chunkBytes;
        private final CompletableFuture<FileDigest> result;
        private ClientCallStreamObserver<WriteFileRequest> requests;
        private boolean headerSent;
        private int offset;
        private boolean done;

        MemoryUpload(byte[] payload, int chunkBytes, CompletableFuture<FileDigest> result) {
            this.payload = payload;
            this.chunkBytes = chunkBytes;
            this.result = result;
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<WriteFileRequest> requests) {
            this.requests = requests;
            requests.setOnReadyHandler(this::drain);
        }

        private synchronized void drain() {
            while (!done && requests.isReady()) {
                if (!headerSent) {
                    headerSent = true;
                    requests.onNext(WriteFileRequest.newBuilder().setHeader(WriteFileHeader.newBuilder()
                            .setPath("memory").setSize(payload.length)).build());
                } else if (offset < payload.length) {
                    int length = Math.min(chunkBytes, payload.length - offset);
                    // The payload is never written after start-up, so sending it without a copy is safe.
                    requests.onNext(WriteFileRequest.newBuilder().setChunk(UnsafeByteOperations.unsafeWrap(payload, offset, length)).build());
                    offset += length;
                } else {
                    done = true;
                    requests.onCompleted();
                }
            }
        }

        @Override
        public void onNext(FileDigest digest) {
            result.complete(digest);
        }

        @Override
        public synchronized void onError(Throwable t) {
            done = true;
            result.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
            result.completeExceptionally(new IllegalStateException("WriteFile completed without a reply"));
        }
    }
}
