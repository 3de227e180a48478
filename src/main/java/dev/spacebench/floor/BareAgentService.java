package dev.spacebench.floor;

import com.google.protobuf.UnsafeByteOperations;
import dev.spacebench.agent.v1.AgentGrpc;
import dev.spacebench.agent.v1.FileDigest;
import dev.spacebench.agent.v1.InfoReply;
import dev.spacebench.agent.v1.InfoRequest;
import dev.spacebench.agent.v1.PingReply;
import dev.spacebench.agent.v1.PingRequest;
import dev.spacebench.agent.v1.ReadFileReply;
import dev.spacebench.agent.v1.ReadFileRequest;
import dev.spacebench.agent.v1.WriteFileRequest;
import dev.spacebench.protocol.AgentProtocol;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The agent's service with nothing behind it: Ping answers at once, WriteFile counts the bytes it
 * receives and drops them, ReadFile streams one payload from memory. No token check, no files,
 * no hashing: what is left is gRPC itself. With hashing on, WriteFile and ReadFile also run the
 * JDK's SHA-256 (the CPU's SHA instructions where it has them) over every chunk, as the agent does,
 * without files. Info answers only its pid and JIT time (what the floor's client needs to settle
 * the server's JIT, as the run does the agent's; untimed). The other calls stay UNIMPLEMENTED.
 */
final class BareAgentService extends AgentGrpc.AgentImplBase {

    private final byte[] payload;
    private final boolean hash;

    /**
     * @param payload what every ReadFile sends, whatever path it names
     * @param hash true: SHA-256 over every chunk received and sent (the digest goes in the reply)
     */
    BareAgentService(byte[] payload, boolean hash) {
        this.payload = payload;
        this.hash = hash;
    }

    /** A fresh SHA-256, or null when this service does not hash. */
    MessageDigest digestOrNull() {
        if (!hash) {
            return null;
        }
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** Lower-case hex of a finished digest, or "" when there was none. */
    static String hex(MessageDigest digest) {
        return digest == null ? "" : java.util.HexFormat.of().formatHex(digest.digest());
    }

    static void update(MessageDigest digest, com.google.protobuf.ByteString chunk) {
        if (digest != null) {
            for (ByteBuffer buffer : chunk.asReadOnlyByteBufferList()) {
                digest.update(buffer);
            }
        }
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingReply> reply) {
        reply.onNext(PingReply.newBuilder().setAgentNanos(System.nanoTime()).build());
        reply.onCompleted();
    }

    /** Only {@code pid} and {@code jit_time_ns} (CompilationMXBean, ms resolution; 0 when the JVM cannot tell). */
    @Override
    public void info(InfoRequest request, StreamObserver<InfoReply> reply) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitNs = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() * 1_000_000L : 0;
        reply.onNext(InfoReply.newBuilder().setPid(ProcessHandle.current().pid()).setJitTimeNs(jitNs).build());
        reply.onCompleted();
    }

    @Override
    public StreamObserver<WriteFileRequest> writeFile(StreamObserver<FileDigest> reply) {
        return new StreamObserver<>() {
            private String path = "";
            private long received;
            private final MessageDigest digest = digestOrNull();

            @Override
            public void onNext(WriteFileRequest request) {
                if (request.hasHeader()) {
                    path = request.getHeader().getPath();
                } else {
                    received += request.getChunk().size();
                    update(digest, request.getChunk());
                }
            }

            @Override
            public void onError(Throwable t) {
                // the client gave up; there is nothing to clean
            }

            @Override
            public void onCompleted() {
                reply.onNext(FileDigest.newBuilder().setPath(path).setSize(received).setSha256(hex(digest)).build());
                reply.onCompleted();
            }
        };
    }

    @Override
    public void readFile(ReadFileRequest request, StreamObserver<ReadFileReply> reply) {
        int chunk = request.getChunkSize() == 0 ? AgentProtocol.DEFAULT_CHUNK_BYTES : request.getChunkSize();
        MemorySender sender = new MemorySender(request.getPath(), payload, chunk, (ServerCallStreamObserver<ReadFileReply>) reply,
                digestOrNull());
        sender.start();
    }

    /** Sends while the transport is ready, as the agent's FileSender does, then the size last. */
    private static final class MemorySender {
        private final String path;
        private final byte[] payload;
        private final int chunk;
        private final ServerCallStreamObserver<ReadFileReply> call;
        private final MessageDigest digest;
        private int offset;
        private boolean done;

        MemorySender(String path, byte[] payload, int chunk, ServerCallStreamObserver<ReadFileReply> call, MessageDigest digest) {
            this.digest = digest;
            this.path = path;
            this.payload = payload;
            this.chunk = chunk;
            this.call = call;
        }

        void start() {
            call.setOnCancelHandler(this::cancel);
            call.setOnReadyHandler(this::drain);
            drain();
        }

        private synchronized void drain() {
            while (!done && call.isReady()) {
                if (offset < payload.length) {
                    int length = Math.min(chunk, payload.length - offset);
                    if (digest != null) {
                        digest.update(payload, offset, length);
                    }
                    // The payload is never written after start-up, so sending it without a copy is safe.
                    call.onNext(ReadFileReply.newBuilder().setChunk(UnsafeByteOperations.unsafeWrap(payload, offset, length)).build());
                    offset += length;
                } else {
                    done = true;
                    call.onNext(ReadFileReply.newBuilder().setDigest(FileDigest.newBuilder().setPath(path).setSize(offset)
                            .setSha256(hex(digest))).build());
                    call.onCompleted();
                }
            }
        }

        private synchronized void cancel() {
            done = true;
        }
    }
}
